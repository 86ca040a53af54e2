import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { SegmentComputeRequest, SegmentComputeResult } from '../../domain/shared/ports.js';
import type { Activities } from '../activities/index.js';

const { computeSegmentMembership } = proxyActivities<Activities>({
  // A million contacts take minutes; the heartbeat notices a dead worker in seconds, and the
  // retried attempt resumes after the last committed batch.
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * A tracked segment's compute (`segment-compute-<id>`): its membership brought up to date, with
 * one entry or exit event per change. Progress is in PostgreSQL, keyed by this run.
 */
export async function segmentCompute(
  request: SegmentComputeRequest,
): Promise<SegmentComputeResult> {
  return computeSegmentMembership({ ...request, runId: workflowInfo().runId });
}
