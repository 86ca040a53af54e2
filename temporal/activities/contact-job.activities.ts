import { Context } from '@temporalio/activity';
import type { Orm } from '../../db/orm.js';
import type { Sql } from '../../db/sql/sql.js';
import { failContactJob, runContactJob } from '../../domain/jobs/run-contact-job.js';

export function createContactJobActivities({
  orm,
  sql,
  importBatchSize,
}: {
  orm: Orm;
  sql: Sql;
  importBatchSize: number;
}) {
  return {
    async runContactJob(jobId: string): Promise<void> {
      const context = Context.current();
      await runContactJob({
        em: orm.em.fork(),
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
