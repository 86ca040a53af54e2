import { Context } from '@temporalio/activity';
import type { Sql } from '../../db/sql/sql.js';
import { failContactJob, runContactJob } from '../../domain/jobs/run-contact-job.js';

export function createContactJobActivities({
  sql,
  importBatchSize,
}: {
  sql: Sql;
  importBatchSize: number;
}) {
  return {
    async runContactJob(jobId: string): Promise<void> {
      const context = Context.current();
      await runContactJob({
        sql,
        jobId,
        heartbeat: (progress) => context.heartbeat(progress),
        batchSize: importBatchSize,
      });
    },
    async failContactJob(jobId: string, message: string): Promise<void> {
      await failContactJob({ sql, jobId, message });
    },
  };
}
