import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { Job, JobFile } from '../../db/entities/index.js';
import type { JobResult } from '../../db/entities/job.entity.js';
import { upsertContacts } from '../../db/sql/contact-upsert.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { newId } from '../shared/ids.js';
import type { Em } from '../shared/ports.js';
import { importColumns, mergeByEmail, parseImportRow, type ImportRow } from './csv-rows.pure.js';

const MAX_REPORTED_ERRORS = 100;

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
  em: Em,
  sql: Sql,
  job: Job,
  heartbeat: Heartbeat,
  batchSize: number,
): Promise<void> {
  const file = await em.findOne(JobFile, { job: job.id });
  if (!file) throw new Error(`Job ${job.id} has no file`);
  const content = Buffer.from(file.content);
  if (job.total === null || job.total === undefined) {
    job.total = await countRecords(content);
    await em.flush();
  }
  const total = job.total;
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
        projectId: job.project.id,
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
        ...batch.failures.slice(0, Math.max(0, MAX_REPORTED_ERRORS - result.errors.length)),
      );
      const moved = await tx.query(
        'UPDATE jobs SET processed = $1, result = $2 WHERE id = $3 AND processed = $4 RETURNING id',
        [before + batch.consumed, JSON.stringify(result), job.id, before],
      );
      if (moved.length === 0) throw new JobProgressConflict(`Job ${job.id} progressed elsewhere`);
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
        await sql.query('UPDATE jobs SET result = $1, processed = $2 WHERE id = $3', [
          JSON.stringify(result),
          total,
          job.id,
        ]);
        return;
      }
      columns = header.columns;
      continue;
    }
    recordIndex += 1;
    if (recordIndex <= processed) continue; // committed by an earlier attempt
    // Row numbers count the header as row 1, as a spreadsheet shows them.
    const row = recordIndex + 1;
    if ('error' in item) batch.failures.push({ row, message: item.error.message });
    else {
      const parsed = parseImportRow(columns, item.record, row);
      if (parsed.ok) batch.rows.push(parsed.value);
      else batch.failures.push({ row: parsed.row, message: parsed.message });
    }
    batch.consumed += 1;
    if (batch.consumed >= batchSize) await flush();
  }
  await flush();
}

/** Subscribe, unsubscribe or delete up to 1000 contacts, in one transaction with the job's result. */
async function runBulk(sql: Sql, job: Job): Promise<void> {
  const ids = (job.input.contactIds as string[] | undefined) ?? [];
  await sql.transaction(async (tx) => {
    let result: JobResult & { deleted?: number };
    if (job.type === 'BULK_DELETE') {
      const [row] = await tx.query<{ n: number }>(
        `WITH gone AS (DELETE FROM contacts WHERE project_id = $1 AND id = ANY($2::uuid[]) RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [job.project.id, ids],
      );
      const deleted = row?.n ?? 0;
      result = {
        created: 0,
        updated: 0,
        deleted,
        skipped: ids.length - deleted,
        failed: 0,
        errors: [],
      };
    } else {
      const subscribed = job.type === 'BULK_SUBSCRIBE';
      const [row] = await tx.query<{ n: number }>(
        `WITH flipped AS (
           UPDATE contacts SET subscribed = $1, subscription_changed_at = now(), updated_at = now()
            WHERE project_id = $2 AND subscribed <> $1 AND id = ANY($3::uuid[])
           RETURNING id, project_id
         ),
         recorded AS (
           INSERT INTO events (id, project_id, contact_id, name, data, created_at)
           SELECT uuid_generate_v7(), project_id, id, $4, jsonb_build_object('source', 'bulk'), now() FROM flipped
           RETURNING 1
         )
         SELECT count(*)::int AS n FROM flipped`,
        [
          subscribed,
          job.project.id,
          ids,
          subscribed ? 'contact.subscribed' : 'contact.unsubscribed',
        ],
      );
      const updated = row?.n ?? 0;
      result = { created: 0, updated, skipped: ids.length - updated, failed: 0, errors: [] };
    }
    await tx.query(
      `UPDATE jobs SET processed = $1, result = $2, status = 'COMPLETED', finished_at = now()
        WHERE id = $3 AND status = 'RUNNING'`,
      [ids.length, JSON.stringify(result), job.id],
    );
  });
}

/**
 * Runs an import or bulk job to completion. Safe to call again after a crash: a finished job is
 * left alone, an import resumes after its last committed batch, a bulk job is one transaction.
 */
export async function runContactJob({
  em,
  sql,
  jobId,
  heartbeat,
  batchSize,
}: {
  em: Em;
  sql: Sql;
  jobId: string;
  heartbeat: Heartbeat;
  batchSize: number;
}): Promise<void> {
  const job = await em.findOne(Job, { id: jobId });
  if (!job) return;
  if (job.status === 'COMPLETED' || job.status === 'FAILED' || job.status === 'CANCELLED') return;
  if (job.status === 'QUEUED') {
    job.status = 'RUNNING';
    job.startedAt = new Date();
    await em.flush();
  }
  if (job.type === 'IMPORT') {
    await runImport(em, sql, job, heartbeat, batchSize);
    await sql.query(
      `UPDATE jobs SET status = 'COMPLETED', finished_at = now() WHERE id = $1 AND status = 'RUNNING'`,
      [job.id],
    );
  } else {
    await runBulk(sql, job);
  }
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
  await sql.query(
    `UPDATE jobs SET status = 'FAILED', finished_at = now(),
            result = jsonb_set(result, '{errors}', (result -> 'errors') || jsonb_build_array(jsonb_build_object('row', 0, 'message', $1::text)))
      WHERE id = $2 AND status IN ('QUEUED', 'RUNNING')`,
    [message, jobId],
  );
}
