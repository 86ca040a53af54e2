import {
  continueAsNew,
  defineSignal,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { AutomationDispatchSettings } from '../../domain/shared/ports.js';
import type { Activities } from '../activities/index.js';
import { CONFIGURE_AUTOMATION_DISPATCH } from '../shared/signals.js';

const { dispatchAutomation } = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  // A lane beats every 2 s; a worker that dies is noticed within this, and the lane moves on.
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export const configureAutomationDispatch = defineSignal<[AutomationDispatchSettings]>(
  CONFIGURE_AUTOMATION_DISPATCH,
);

// Well under Temporal's limits; a run this long has dispatched for hours.
const MAX_HISTORY_EVENTS = 2000;

/**
 * The automation dispatch loop of a queue (`automation-dispatch-<queue>`): `lanes` activities at
 * a time, each draining the queue's event outbox (starting executions, signalling waiting ones)
 * and its command outbox for `laneSeconds`, one after another for ever, on whichever workers
 * poll the queue. It continues as new before its history grows long, or when new settings arrive.
 */
export async function automationDispatch(settings: AutomationDispatchSettings): Promise<void> {
  let current = settings;
  let reconfigured = false;
  setHandler(configureAutomationDispatch, (next) => {
    if (next.lanes === current.lanes && next.laneSeconds === current.laneSeconds) return;
    current = next;
    reconfigured = true;
  });
  const keepGoing = (): boolean =>
    !reconfigured &&
    !workflowInfo().continueAsNewSuggested &&
    workflowInfo().historyLength < MAX_HISTORY_EVENTS;
  await Promise.all(
    Array.from({ length: settings.lanes }, async () => {
      while (keepGoing()) await dispatchAutomation({ runForSeconds: current.laneSeconds });
    }),
  );
  await continueAsNew<typeof automationDispatch>(current);
}
