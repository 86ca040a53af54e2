import { deleteContactsById, setSubscriptionById } from '../../db/sql/contacts.sql.js';
import { clearImportStaging } from '../../db/sql/import-rows.sql.js';
import { completeJob, failJob, startJob, type JobRow } from '../../db/sql/jobs.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import type { JobResult } from './job-result.pure.js';
import { FINISHED_JOB_STATUSES } from './job-status.pure.js';
import { runImport, type Heartbeat, type ImportsRunning } from './run-import.js';

/** Subscribe, unsubscribe or delete up to 1000 contacts, in one transaction with the job's result. */
async function runBulk(sql: Sql, job: JobRow): Promise<void> {
  const contactIds = job.input.contactIds ?? [];
  const projectId = job.project_id;
  await sql.transaction(async (tx) => {
    let result: JobResult;
    if (job.type === 'BULK_DELETE') {
      const deleted = await deleteContactsById(tx, { projectId, contactIds });
      result = {
        created: 0,
        updated: 0,
        deleted,
        skipped: contactIds.length - deleted,
        failed: 0,
        errors: [],
      };
    } else {
      const updated = await setSubscriptionById(tx, {
        projectId,
        contactIds,
        subscribed: job.type === 'BULK_SUBSCRIBE',
        source: 'bulk',
      });
      result = { created: 0, updated, skipped: contactIds.length - updated, failed: 0, errors: [] };
    }
    await completeJob(tx, { jobId: job.id, processed: contactIds.length, result });
  });
}

/**
 * Runs an import or bulk job to completion. Safe to call again after a crash: a finished job is
 * left alone, an import resumes after its last committed batch, a bulk job is one transaction.
 */
export async function runContactJob(run: {
  sql: Sql;
  jobId: string;
  heartbeat: Heartbeat;
  batchSize: number;
  imports: ImportsRunning;
}): Promise<void> {
  const { sql, jobId, heartbeat, batchSize, imports } = run;
  const job = await startJob(sql, { jobId });
  if (!job || FINISHED_JOB_STATUSES.includes(job.status)) {
    // An import that ended (or whose project went) while a run had rows staged.
    await clearImportStaging(sql, { jobId });
    return;
  }
  if (job.type === 'IMPORT') await runImport({ sql, job, heartbeat, batchSize, imports });
  else await runBulk(sql, job);
}

/** The job's attempts are exhausted: say so on the job, keeping the counts of what did commit. */
export async function failContactJob({
  sql,
  jobId,
  message,
}: {
  sql: Sql;
  jobId: string;
  message: string;
}): Promise<void> {
  await sql.transaction(async (tx) => {
    await failJob(tx, { jobId, message });
    await clearImportStaging(tx, { jobId });
  });
}
