import { patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import {
  ENSURE_AUTOMATION_DISPATCH_PATCH,
  ENSURE_EMAIL_DELIVERY_PATCH,
} from '../shared/patches.js';

const retried = {
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3 },
} as const;

const { ensureEmailDelivery, ensureAutomationDispatch } = proxyActivities<Activities>(retried);

/**
 * The activity that runs recorded before ENSURE_EMAIL_DELIVERY_PATCH scheduled, by its old name
 * (it answered counts that were always zero). Replaying those runs needs the name; no worker
 * registers it any more, so a run caught mid-activity by an upgrade fails, and the schedule's
 * next run does its work.
 */
const legacy = proxyActivities<{ dispatchQueuedEmails(): Promise<unknown> }>(retried);

/**
 * Run by the `email-dispatch` schedule: makes sure the queue's email-delivery loop and its
 * automation dispatch loop run (an operator may have terminated one). The workflow keeps its
 * older name: schedules and runs in flight know it by that.
 */
export async function dispatchQueuedEmails(): Promise<void> {
  if (patched(ENSURE_EMAIL_DELIVERY_PATCH)) await ensureEmailDelivery();
  else await legacy.dispatchQueuedEmails();
  if (patched(ENSURE_AUTOMATION_DISPATCH_PATCH)) await ensureAutomationDispatch();
}
