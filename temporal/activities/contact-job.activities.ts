import { Context } from '@temporalio/activity';
import type { Sql } from '../../db/sql/sql.js';
import { failContactJob, runContactJob } from '../../domain/jobs/run-contact-job.js';
import type { ImportsRunning } from '../../domain/jobs/run-import.js';

const HEARTBEAT_EVERY_MS = 1000;

export function createContactJobActivities({
  sql,
  importBatchSize,
}: {
  sql: Sql;
  importBatchSize: number;
}) {
  const imports: ImportsRunning = { count: 0 };
  return {
    async runContactJob(jobId: string): Promise<void> {
      const context = Context.current();
      // An import calls this for every batch; the server needs one well within the 10 s timeout.
      let last = 0;
      await runContactJob({
        sql,
        jobId,
        heartbeat: (progress) => {
          const now = Date.now();
          if (now - last < HEARTBEAT_EVERY_MS) return;
          last = now;
          context.heartbeat(progress);
        },
        batchSize: importBatchSize,
        imports,
      });
    },
    async failContactJob(jobId: string, message: string): Promise<void> {
      await failContactJob({ sql, jobId, message });
    },
  };
}
