import { continueAsNew, defineSignal, proxyActivities } from '@temporalio/workflow';
import type { EmailDeliverySettings } from '../../domain/shared/ports.js';
import type { Activities } from '../activities/index.js';
import { CONFIGURE_EMAIL_DELIVERY } from '../shared/signals.js';
import { runLanes } from './lane-loop.js';

const { deliverQueuedEmails } = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  // A lane beats every 2 s; a worker that dies is noticed within this, and the lane moves on.
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export const configureEmailDelivery =
  defineSignal<[EmailDeliverySettings]>(CONFIGURE_EMAIL_DELIVERY);

/**
 * The delivery loop of a queue (`email-delivery-<queue>`): `lanes` activities at a time, each
 * delivering queued mail for `laneSeconds`, one after another for ever, on whichever workers
 * poll the queue. The loop continues as new before its history grows long, or when new settings
 * arrive. Each email that needs retrying leaves the loop for a send-email workflow of its own.
 */
export async function emailDelivery(settings: EmailDeliverySettings): Promise<void> {
  const next = await runLanes(settings, configureEmailDelivery, (runForSeconds) =>
    deliverQueuedEmails({ runForSeconds }),
  );
  await continueAsNew<typeof emailDelivery>(next);
}
