import type { StagedImportRow } from '../../domain/jobs/import-batches.pure.js';
import type { Sql } from './sql.js';

// COPY's text format: a backslash, tab, newline or carriage return in a value is escaped, and
// \N is NULL. Staged text never holds NUL (the import refuses such cells).
const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};
const NEEDS_ESCAPE = /[\\\t\n\r]/;
const copyText = (value: string | null): string =>
  value === null
    ? '\\N'
    : NEEDS_ESCAPE.test(value)
      ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c] as string)
      : value;
const copyBoolean = (value: boolean | null): string => (value === null ? '\\N' : value ? 't' : 'f');

/** One run of an import's staging (claimImportStage). */
export interface ImportStage {
  jobId: string;
  stageNo: string;
}

/** The COPY text of a batch's staged rows (made while earlier batches are applied). */
export function importRowsCopyText({ stageNo }: ImportStage, rows: StagedImportRow[]): string {
  let text = '';
  for (const r of rows) {
    text += `${stageNo}\t${r.batchStart}\t${r.sheetRow}\t${r.id ?? '\\N'}\t${copyText(r.email)}\t${copyBoolean(r.subscribed)}\t${copyText(r.data === null ? null : JSON.stringify(r.data))}\t${r.occurrences}\t${copyText(r.error)}\n`;
  }
  return text;
}

/**
 * Starts a run of the job's staging: it becomes the one run that may stage the job's rows, and
 * what the run before it staged goes (after waiting for a batch that run is staging). Answers
 * the run and the job's progress as it stands; undefined when the job is gone.
 */
export async function claimImportStage(
  sql: Sql,
  { jobId }: { jobId: string },
): Promise<{ stage: ImportStage; processed: number; total: number | null } | undefined> {
  return sql.transaction(async (tx) => {
    const [job] = await tx.query<{ processed: number; total: number | null }>(
      'SELECT processed, total FROM jobs WHERE id = $1',
      [jobId],
    );
    if (!job) return undefined;
    // FOR UPDATE waits for a batch the run before is staging (it holds the row FOR SHARE).
    const [before] = await tx.query<{ stage_no: string }>(
      'SELECT stage_no FROM import_stages WHERE job_id = $1 FOR UPDATE',
      [jobId],
    );
    const [claimed] = await tx.query<{ stage_no: string }>(
      `INSERT INTO import_stages (job_id, stage_no) VALUES ($1, nextval('import_stage_numbers'))
       ON CONFLICT (job_id) DO UPDATE SET stage_no = excluded.stage_no
       RETURNING stage_no`,
      [jobId],
    );
    if (before) await tx.query('DELETE FROM import_rows WHERE stage_no = $1', [before.stage_no]);
    return {
      stage: { jobId, stageNo: (claimed as { stage_no: string }).stage_no },
      processed: job.processed,
      total: job.total,
    };
  });
}

/**
 * Commits one batch's rows (COPY text from importRowsCopyText) if the run still stages the job;
 * false when another run took over (nothing is written).
 */
export async function stageImportRows(
  sql: Sql,
  { stage, text }: { stage: ImportStage; text: string },
): Promise<boolean> {
  return sql.transaction(async (tx) => {
    // FOR SHARE: a takeover (claimImportStage) waits for this batch, then clears it.
    const owned = await tx.query(
      'SELECT 1 FROM import_stages WHERE job_id = $1 AND stage_no = $2 FOR SHARE',
      [stage.jobId, stage.stageNo],
    );
    if (owned.length === 0) return false;
    await tx.query("SELECT set_config('synchronous_commit', 'off', true)");
    await tx.copyFrom(
      `COPY import_rows (stage_no, batch_start, sheet_row, id, email, subscribed, data, occurrences, error) FROM STDIN`,
      (async function* () {
        yield text;
      })(),
    );
    return true;
  });
}

/** The run is over: what it left staged goes, and its claim unless another run took over. */
export async function endImportStage(sql: Sql, stage: ImportStage): Promise<void> {
  await sql.query(
    `WITH ended AS (DELETE FROM import_stages WHERE job_id = $1 AND stage_no = $2)
     DELETE FROM import_rows WHERE stage_no = $2`,
    [stage.jobId, stage.stageNo],
  );
}

export interface AppliedImportBatch {
  /** The job's progress after the batch. */
  processed: number;
  /** The file's records the batch stood for. */
  records: number;
}

/**
 * Applies the batch that the run `stage` staged at `batchStart`, takes it out of the staging table
 * and moves the job's progress and counts past it, in ONE statement: existing contacts are
 * updated under the data rules (`data || set`, `subscribed` kept where the file leaves it empty),
 * the others inserted, a flip of `subscribed` records contact.subscribed / contact.unsubscribed,
 * and the job's `processed` moves from `batchStart` only if it still stands there. Failed rows
 * join the job's errors up to `maxErrors`. Undefined when no such batch is staged or the
 * progress moved elsewhere (another attempt; the caller rolls back). A contact created by
 * someone else between the update and the insert makes the insert fail with a unique violation
 * (23505): the caller runs the batch's transaction again, and the update then finds it.
 */
export async function applyImportBatch(
  sql: Sql,
  {
    stage,
    projectId,
    batchStart,
    total,
    defaultSubscribed,
    source,
    maxErrors,
  }: {
    stage: ImportStage;
    projectId: string;
    batchStart: number;
    /** The file's records, once known (saved on the job). */
    total: number | null;
    defaultSubscribed: boolean;
    source: string;
    maxErrors: number;
  },
): Promise<AppliedImportBatch | undefined> {
  // For the batch's transaction: its commit need not wait for the WAL to reach disk (a
  // PostgreSQL crash loses the batch and the progress past it together, and the batch is applied
  // again; anything that read it commits later and so flushes it), and the statement is planned
  // for each batch: contacts grows as the import goes, and a plan kept from a small table (a hash
  // join over all of it) made a 50,000-row import quadratic (measured: 2,200 rows/s falling to
  // 200); planning costs ~2 ms a batch.
  await sql.query(
    `SELECT set_config('synchronous_commit', 'off', true),
            set_config('plan_cache_mode', 'force_custom_plan', true)`,
  );
  const [row] = await sql.query<{
    merged: number;
    written: number;
    records: number;
    processed: number | null;
  }>(
    `WITH batch AS (
       DELETE FROM import_rows WHERE stage_no = $8 AND batch_start = $2
       RETURNING sheet_row, id, email, subscribed, data, occurrences, error
     ),
     input AS (SELECT id, email, subscribed, data, occurrences FROM batch WHERE error IS NULL),
     updated AS (
       UPDATE contacts c SET
         data = c.data || i.data,
         subscribed = coalesce(i.subscribed, c.subscribed),
         subscription_changed_at = CASE WHEN i.subscribed IS NOT NULL AND i.subscribed <> c.subscribed
                                        THEN now() ELSE c.subscription_changed_at END,
         updated_at = now()
         FROM input i
        WHERE c.project_id = $3 AND c.email = i.email
       RETURNING c.id, c.email, c.subscribed, c.subscription_changed_at = now() AS flipped
     ),
     inserted AS (
       INSERT INTO contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
       SELECT i.id, $3, i.email, coalesce(i.subscribed, $4::boolean), i.data, now(), now(), now()
         FROM input i
        WHERE i.email NOT IN (SELECT email FROM updated)
       RETURNING id
     ),
     flips AS (
       INSERT INTO events (id, project_id, contact_id, name, data, created_at)
       SELECT uuid_generate_v7(), $3, u.id,
              CASE WHEN u.subscribed THEN 'contact.subscribed' ELSE 'contact.unsubscribed' END,
              jsonb_build_object('source', $5::text), now()
         FROM updated u
        WHERE u.flipped
       RETURNING id
     ),
     counts AS (
       SELECT (SELECT coalesce(sum(occurrences), 0) FROM batch)::int AS records,
              (SELECT count(*) FROM input)::int AS merged,
              (SELECT coalesce(sum(occurrences), 0) FROM input)::int AS valid,
              (SELECT count(*) FROM inserted)::int AS created,
              (SELECT count(*) FROM updated)::int AS updated
     ),
     failures AS (
       SELECT sheet_row, error, row_number() OVER (ORDER BY sheet_row) AS n
         FROM batch WHERE error IS NOT NULL
     ),
     progressed AS (
       UPDATE jobs j SET
         processed = $2 + k.records,
         total = coalesce($6::int, j.total),
         result = j.result || jsonb_build_object(
           'created', (j.result ->> 'created')::int + k.created,
           'updated', (j.result ->> 'updated')::int + k.valid - k.created,
           'failed', (j.result ->> 'failed')::int + (SELECT count(*) FROM failures),
           'errors', (j.result -> 'errors') || coalesce(
             (SELECT jsonb_agg(jsonb_build_object('row', f.sheet_row, 'message', f.error) ORDER BY f.sheet_row)
                FROM failures f
               WHERE f.n <= $7::int - jsonb_array_length(j.result -> 'errors')),
             '[]'::jsonb))
         FROM counts k
        WHERE j.id = $1 AND j.processed = $2
       RETURNING j.processed
     )
     SELECT k.merged, k.created + k.updated AS written, k.records,
            (SELECT processed FROM progressed) AS processed
       FROM counts k`,
    [
      stage.jobId,
      batchStart,
      projectId,
      defaultSubscribed,
      source,
      total,
      maxErrors,
      stage.stageNo,
    ],
    'import-apply-batch',
  );
  if (!row || row.records === 0 || row.processed === null) return undefined;
  if (row.written !== row.merged)
    throw new Error(`An import batch wrote ${row.written} of its ${row.merged} contacts`);
  return { processed: row.processed, records: row.records };
}

/** The job's staging run, if one is left, and what it staged go (the job ended). */
export async function clearImportStaging(sql: Sql, { jobId }: { jobId: string }): Promise<void> {
  await sql.query(
    `WITH ended AS (DELETE FROM import_stages WHERE job_id = $1 RETURNING stage_no)
     DELETE FROM import_rows WHERE stage_no IN (SELECT stage_no FROM ended)`,
    [jobId],
  );
}
