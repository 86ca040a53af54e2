import {
  LAST_ID,
  batchEnd,
  beginCompute,
  computeBatch,
  finishCompute,
  listTrackedSegments,
} from '../../db/sql/segment-compute.sql.js';
import { findSegment } from '../../db/sql/segments.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import type { SegmentComputeResult, WorkflowEngine } from '../shared/ports.js';
import { membershipEventName } from './segment-type.pure.js';
import { compileForProject } from './segments.service.js';

/** Thrown when another attempt of the same compute moved its progress: this one stops. */
export class ComputeProgressConflict extends Error {}

/**
 * Brings a tracked segment's stored membership to what its filter matches now, batch after
 * batch of contacts (in id order): in each batch's transaction, members who no longer match
 * leave and new matches join, each change recording one `segment.<slug>.exit` or `.entry`
 * event, and the compute's progress and counts move on. Run again with the same `runId` (a
 * retried attempt after a crash) it resumes after the last committed batch, so every change is
 * made, counted and announced once. A segment that is gone or no longer tracked computes nothing.
 */
export async function computeSegmentMembership({
  sql,
  projectId,
  segmentId,
  runId,
  batchSize,
  progress = () => undefined,
}: {
  sql: Sql;
  projectId: string;
  segmentId: string;
  runId: string;
  batchSize: number;
  /** Called after each committed batch with the last contact id it covered. */
  progress?: (state: { after: string }) => void;
}): Promise<SegmentComputeResult> {
  const segment = await findSegment(sql, { projectId, segmentId });
  if (!segment || segment.type !== 'DYNAMIC' || !segment.track_membership || !segment.filter) {
    return { added: 0, removed: 0, total: 0 };
  }
  const where = await compileForProject(sql, { projectId, filter: segment.filter });
  const state = await beginCompute(sql, { runId, segmentId });
  let after = state.after_contact_id;
  while (!state.done && after !== LAST_ID) {
    const upto = (await batchEnd(sql, { projectId, afterId: after, size: batchSize })) ?? null;
    const moved = await computeBatch(sql, {
      runId,
      projectId,
      segmentId,
      where,
      afterId: after,
      upto,
      entryEvent: membershipEventName(segment.slug, 'entry'),
      exitEvent: membershipEventName(segment.slug, 'exit'),
      eventData: { segmentId, segmentName: segment.name },
    });
    if (!moved) throw new ComputeProgressConflict(`Compute ${runId} progressed elsewhere`);
    after = upto ?? LAST_ID;
    progress({ after });
  }
  return finishCompute(sql, { runId, segmentId });
}

/**
 * The recompute schedule's work: a compute for every tracked segment of every project, each its
 * own workflow (one that runs already is left to finish). Answers how many were started.
 */
export async function startTrackedSegmentComputes({
  sql,
  engine,
}: {
  sql: Sql;
  engine: WorkflowEngine;
}): Promise<{ segments: number }> {
  const tracked = await listTrackedSegments(sql);
  for (const segment of tracked) {
    await engine.startSegmentCompute({ segmentId: segment.id, projectId: segment.project_id });
  }
  return { segments: tracked.length };
}
