import type { Sql } from '../../db/sql/sql.js';
import {
  computeSegmentMembership,
  startTrackedSegmentComputes,
} from '../../domain/segments/segment-compute.service.js';
import type {
  SegmentComputeRequest,
  SegmentComputeResult,
  WorkflowEngine,
} from '../../domain/shared/ports.js';
import { heartbeating } from './heartbeating.js';

export function createSegmentActivities({
  sql,
  engine,
  batchSize,
}: {
  sql: Sql;
  engine: WorkflowEngine;
  batchSize: number;
}) {
  return {
    async computeSegmentMembership(
      request: SegmentComputeRequest & { runId: string },
    ): Promise<SegmentComputeResult> {
      // Beats while a batch runs, too; the details say how far the compute has come.
      return heartbeating((note) =>
        computeSegmentMembership({
          sql,
          ...request,
          batchSize,
          progress: (state) => note({ after: state.after }),
        }),
      );
    },
    async startTrackedSegmentComputes(): Promise<{ segments: number }> {
      return startTrackedSegmentComputes({ sql, engine });
    },
  };
}
