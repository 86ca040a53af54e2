import { continueAsNew, defineSignal, proxyActivities } from '@temporalio/workflow';
import type { AutomationDispatchSettings } from '../../domain/shared/ports.js';
import type { Activities } from '../activities/index.js';
import { CONFIGURE_AUTOMATION_DISPATCH } from '../shared/signals.js';
import { runLanes } from './lane-loop.js';

const { dispatchAutomation } = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  // A lane beats every 2 s; a worker that dies is noticed within this, and the lane moves on.
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export const configureAutomationDispatch = defineSignal<[AutomationDispatchSettings]>(
  CONFIGURE_AUTOMATION_DISPATCH,
);

/**
 * The automation dispatch loop of a queue (`automation-dispatch-<queue>`): `lanes` activities at
 * a time, each draining the queue's event outbox (starting executions, signalling waiting ones)
 * and its command outbox for `laneSeconds`, one after another for ever, on whichever workers
 * poll the queue. It continues as new before its history grows long, or when new settings arrive.
 */
export async function automationDispatch(settings: AutomationDispatchSettings): Promise<void> {
  const next = await runLanes(settings, configureAutomationDispatch, (runForSeconds) =>
    dispatchAutomation({ runForSeconds }),
  );
  await continueAsNew<typeof automationDispatch>(next);
}
