import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { reportBillingUsage: report } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * Run by the `billing-usage` schedule: reports the finished hours of each project's usage to
 * Stripe as meter events (each with an identifier Stripe de-duplicates, so a retry never bills
 * twice), then emails the limit warnings recorded since to the projects' owners and admins.
 */
export async function reportBillingUsage(): Promise<{ reported: number; mailed: number }> {
  return report();
}
