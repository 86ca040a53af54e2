import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { upsertContacts } from '../../db/sql/contact-upsert.sql.js';
import { deleteContactsById, setSubscriptionById } from '../../db/sql/contacts.sql.js';
import {
  advanceJobProgress,
  completeJob,
  failJob,
  findJobFile,
  setJobTotal,
  startJob,
  type JobRow,
} from '../../db/sql/jobs.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { newId } from '../shared/ids.js';
import { storableText } from '../shared/storable-text.pure.js';
import { importColumns, mergeByEmail, parseImportRow, type ImportRow } from './csv-rows.pure.js';
import { MAX_REPORTED_JOB_ERRORS, type JobResult } from './job-result.pure.js';
import { FINISHED_JOB_STATUSES } from './job-status.pure.js';

export type Heartbeat = (progress: { processed: number; total: number | null }) => void;

/** Thrown when the job's stored progress moved under us: another attempt is (or was) running. */
export class JobProgressConflict extends Error {}

function csvRecords(
  content: Buffer,
): AsyncIterable<{ record: string[]; line: number } | { error: Error; line: number }> {
  const parser = parse({
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    bom: true,
    info: true,
  });
  const out = Readable.from(content).pipe(parser);
  const skipped: { error: Error; line: number }[] = [];
  parser.on('skip', (error: Error & { lines?: number }) =>
    skipped.push({ error, line: error.lines ?? 0 }),
  );
  return (async function* () {
    for await (const item of out as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      while (skipped.length) yield skipped.shift() as { error: Error; line: number };
      yield { record: item.record, line: item.info.lines };
    }
    while (skipped.length) yield skipped.shift() as { error: Error; line: number };
  })();
}

async function countRecords(content: Buffer): Promise<number> {
  let n = 0;
  for await (const _ of csvRecords(content)) n += 1;
  return Math.max(0, n - 1);
}

/**
 * Imports the job's CSV in batches. Each batch's upserts and the job's progress and counts commit
 * in one transaction, guarded by the progress value read before it, so a retried attempt (say,
 * after the worker was killed) resumes after the last committed batch and counts every row once.
 */
async function runImport(
  sql: Sql,
  job: JobRow,
  heartbeat: Heartbeat,
  batchSize: number,
): Promise<void> {
  const content = await findJobFile(sql, { jobId: job.id });
  if (!content) throw new Error(`Job ${job.id} has no file`);
  let total = job.total;
  if (total === null) {
    total = await countRecords(content);
    await setJobTotal(sql, { jobId: job.id, total });
  }
  let processed = job.processed;
  const result: JobResult = structuredClone(job.result);
  let columns: string[] | undefined;
  let recordIndex = 0;
  let batch: { rows: ImportRow[]; failures: { row: number; message: string }[]; consumed: number } =
    {
      rows: [],
      failures: [],
      consumed: 0,
    };

  const flush = async (): Promise<void> => {
    if (batch.consumed === 0) return;
    const merged = mergeByEmail(batch.rows);
    const before = processed;
    await sql.transaction(async (tx) => {
      const written = await upsertContacts(tx, {
        projectId: job.project_id,
        defaultSubscribed: true,
        source: 'import',
        rows: merged.map(({ row }) => ({
          id: newId(),
          email: row.email,
          subscribed: row.subscribed,
          set: row.set,
          unset: [],
          flipEventId: newId(),
        })),
      });
      for (const [i, w] of written.entries()) {
        const occurrences = merged[i]?.occurrences ?? 1;
        result.created += w.inserted ? 1 : 0;
        result.updated += w.inserted ? occurrences - 1 : occurrences;
      }
      result.failed += batch.failures.length;
      result.errors.push(
        ...batch.failures.slice(0, Math.max(0, MAX_REPORTED_JOB_ERRORS - result.errors.length)),
      );
      const moved = await advanceJobProgress(tx, {
        jobId: job.id,
        from: before,
        to: before + batch.consumed,
        result,
      });
      if (!moved) throw new JobProgressConflict(`Job ${job.id} progressed elsewhere`);
    });
    processed = before + batch.consumed;
    batch = { rows: [], failures: [], consumed: 0 };
    heartbeat({ processed, total });
  };

  for await (const item of csvRecords(content)) {
    if (!columns) {
      if ('error' in item) throw new Error(`The header row cannot be read: ${item.error.message}`);
      const header = importColumns(item.record);
      if (header.error) {
        result.failed = total;
        result.errors = [{ row: 1, message: header.error }];
        await completeJob(sql, { jobId: job.id, processed: total, result });
        return;
      }
      columns = header.columns;
      continue;
    }
    recordIndex += 1;
    if (recordIndex <= processed) continue; // committed by an earlier attempt
    // Row numbers count the header as row 1, as a spreadsheet shows them.
    const row = recordIndex + 1;
    // The parser's message may quote the row, which may hold text the report cannot store.
    if ('error' in item) batch.failures.push({ row, message: storableText(item.error.message) });
    else {
      const parsed = parseImportRow(columns, item.record, row);
      if (parsed.ok) batch.rows.push(parsed.value);
      else batch.failures.push({ row: parsed.row, message: parsed.message });
    }
    batch.consumed += 1;
    if (batch.consumed >= batchSize) await flush();
  }
  await flush();
  await completeJob(sql, { jobId: job.id });
}

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
export async function runContactJob({
  sql,
  jobId,
  heartbeat,
  batchSize,
}: {
  sql: Sql;
  jobId: string;
  heartbeat: Heartbeat;
  batchSize: number;
}): Promise<void> {
  const job = await startJob(sql, { jobId });
  if (!job || FINISHED_JOB_STATUSES.includes(job.status)) return;
  if (job.type === 'IMPORT') await runImport(sql, job, heartbeat, batchSize);
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
  await failJob(sql, { jobId, message });
}
