import { Context } from '@temporalio/activity';
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
      const context = Context.current();
      // Beats while a batch runs, too; the details say how far the compute has come.
      let after: string | undefined;
      const beat = setInterval(() => context.heartbeat({ after }), 2000);
      try {
        return await computeSegmentMembership({
          sql,
          ...request,
          batchSize,
          progress: (state) => {
            after = state.after;
            context.heartbeat({ after });
          },
        });
      } finally {
        clearInterval(beat);
      }
    },
    async startTrackedSegmentComputes(): Promise<{ segments: number }> {
      return startTrackedSegmentComputes({ sql, engine });
    },
  };
}
