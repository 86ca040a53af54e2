import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { dispatchQueuedEmails: dispatch } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3 },
});

/**
 * Run by the `email-dispatch` schedule: makes sure the queue's email-delivery loop runs. (The
 * name is older than the loop; runs in flight keep it.)
 */
export async function dispatchQueuedEmails(): Promise<{ found: number; dispatched: number }> {
  return dispatch();
}
