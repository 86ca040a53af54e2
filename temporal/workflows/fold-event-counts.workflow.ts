import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { foldEventCounts: fold } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * Run by the `event-counts-fold` schedule: the hourly email event counts that concurrent writers
 * kept in several shards become one row per finished hour, so the activity stats and analytics
 * series read one row an hour and name, not up to sixteen.
 */
export async function foldEventCounts(): Promise<{ moved: number }> {
  return fold();
}
