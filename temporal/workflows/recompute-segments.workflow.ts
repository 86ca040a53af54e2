import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { startTrackedSegmentComputes } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3 },
});

/** Run by the `segment-recompute` schedule: starts a compute for every tracked segment. */
export async function recomputeSegments(): Promise<{ segments: number }> {
  return startTrackedSegmentComputes();
}
