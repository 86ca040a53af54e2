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

/**
 * The run is over: its staged rows go (in one statement, ~30 ms for 100,000: cheaper than with
 * each batch), and its claim unless another run took over.
 */
export async function endImportStage(sql: Sql, stage: ImportStage): Promise<void> {
  await sql.query(
    `WITH ended AS (DELETE FROM import_stages WHERE job_id = $1 AND stage_no = $2)
     DELETE FROM import_rows WHERE stage_no = $2`,
    [stage.jobId, stage.stageNo],
  );
}

/**
 * A batch's lock (beginImportBatch) is a transaction-level advisory lock on two int4 keys (a
 * kind of key no other lock here uses): the run's number, wrapped into an int4, and the batch's
 * start. `$1` of that statement and `$8` of the batch statement are the run's number.
 */
const runKey = (param: string): string => `(${param}::bigint % 2147483647)::int`;
const BATCH_LOCK_RUN = runKey('$1');

/**
 * Sets up the transaction of an import batch (call it first in that transaction): its commit
 * does not wait for the WAL to reach disk (a PostgreSQL crash loses the batch and the progress
 * past it together, and the batch is applied again; anything that read it commits later and so
 * flushes it), and the batch statement is planned once per connection (a plan made for each
 * batch cost ~20% more to run, measured), so it must not depend on what the tables held then: it
 * reaches contacts only through its conflict arbiter, and the staged batch through its index (a
 * scan kept from when the staging table was empty would read every staged row for each batch).
 * It also takes the batch's own lock, which the batch applied after it waits for before it
 * reads the job's progress (applyImportBatch): start that batch only once this has returned.
 * No connection is held between batches: a worker runs many imports side by side on one pool.
 */
export async function beginImportBatch(
  tx: Sql,
  { stage, batchStart }: { stage: ImportStage; batchStart: number },
): Promise<void> {
  await tx.query(
    `SELECT set_config('synchronous_commit', 'off', true),
            set_config('plan_cache_mode', 'force_generic_plan', true),
            set_config('enable_seqscan', 'off', true),
            pg_advisory_xact_lock(${BATCH_LOCK_RUN}, $2::int)`,
    [stage.stageNo, batchStart],
  );
}

/**
 * The statement of a batch ($1 job, $2 batch start, $3 project, $4 default `subscribed`, $5
 * source, $6 total, $7 most errors kept, $8 stage, $9 start of the batch applied before it in
 * this run, or null), around the CTEs that write the contacts (`written`: id, subscribed,
 * created, flipped).
 */
const applyBatchSql = (writes: string): string => `WITH batch AS (
       SELECT sheet_row, id, email, subscribed, data, occurrences, error
         FROM import_rows WHERE stage_no = $8 AND batch_start = $2
     ),
     input AS (SELECT id, email, subscribed, data, occurrences FROM batch WHERE error IS NULL),
${writes}     flips AS (
       INSERT INTO events (id, project_id, contact_id, name, data, created_at)
       SELECT uuid_generate_v7(now()), $3, w.id,
              CASE WHEN w.subscribed THEN 'contact.subscribed' ELSE 'contact.unsubscribed' END,
              jsonb_build_object('source', $5::text), now()
         FROM written w
        WHERE w.flipped
       RETURNING id
     ),
     counts AS (
       SELECT (SELECT coalesce(sum(occurrences), 0) FROM batch)::int AS records,
              (SELECT count(*) FROM input)::int AS merged,
              (SELECT coalesce(sum(occurrences), 0) FROM input)::int AS valid,
              (SELECT count(*) FROM written)::int AS written,
              (SELECT count(*) FILTER (WHERE created) FROM written)::int AS created
     ),
     failures AS (
       SELECT sheet_row, error, row_number() OVER (ORDER BY sheet_row) AS n
         FROM batch WHERE error IS NOT NULL
     ),
     -- Once the batch's contacts are written (it reads counts), a batch applied beside the one
     -- before it waits for that one's transaction to end (its lock), then locks the job's row,
     -- which reads the row's newest version: the progress that batch left, if it committed.
     waited AS (
       SELECT pg_advisory_xact_lock_shared(${runKey('$8')}, $9::int)::text FROM counts
     ),
     job AS (
       SELECT j.processed FROM jobs j CROSS JOIN waited
        WHERE j.id = $1 AND j.processed <= $2
        FOR UPDATE OF j
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
         FROM counts k, job
        WHERE j.id = $1 AND job.processed = $2
       RETURNING j.processed
     )
     SELECT k.records, k.merged, k.written, (SELECT processed FROM progressed) AS processed
       FROM counts k`;

/** Contacts that may exist: INSERT ... ON CONFLICT, a row leaving `subscribed` empty in its own arm. */
const UPSERT = {
  name: 'import-apply-batch',
  text: applyBatchSql(`     kept AS (
       INSERT INTO contacts AS c (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
       SELECT i.id, $3, i.email, $4::boolean, i.data, now(), now(), now()
         FROM input i WHERE i.subscribed IS NULL
       ON CONFLICT (project_id, email) DO UPDATE SET
         data = c.data || excluded.data,
         updated_at = now()
       RETURNING c.id, c.subscribed, (c.xmax = 0) AS created, false AS flipped
     ),
     given AS (
       INSERT INTO contacts AS c (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
       SELECT i.id, $3, i.email, i.subscribed, i.data, now(), now(), now()
         FROM input i WHERE i.subscribed IS NOT NULL
       ON CONFLICT (project_id, email) DO UPDATE SET
         data = c.data || excluded.data,
         subscribed = excluded.subscribed,
         subscription_changed_at = CASE WHEN excluded.subscribed <> c.subscribed
                                        THEN now() ELSE c.subscription_changed_at END,
         updated_at = now()
       RETURNING c.id, c.subscribed, (c.xmax = 0) AS created,
                 (NOT (c.xmax = 0) AND c.subscription_changed_at = now()) AS flipped
     ),
     written AS (SELECT * FROM kept UNION ALL SELECT * FROM given),
`),
};

/**
 * Only new contacts: a plain INSERT, which costs what COPY does per row (the conflict arbiter's
 * speculative insertion adds ~10%). One that exists fails it with a unique violation.
 */
const INSERT_NEW = {
  name: 'import-apply-batch-new',
  text: applyBatchSql(`     written AS (
       INSERT INTO contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
       SELECT i.id, $3, i.email, coalesce(i.subscribed, $4::boolean), i.data, now(), now(), now()
         FROM input i
       RETURNING id, subscribed, true AS created, false AS flipped
     ),
`),
};

/**
 * Applies the batch that the run `stage` staged at `batchStart` and moves the job's progress and
 * counts past it, in ONE statement (run it in a transaction begun by beginImportBatch; the
 * run's staged rows go at its end, endImportStage). Contacts are written
 * under the data rules (UPSERT: an existing contact gets `data || set`, and keeps `subscribed`
 * where the file leaves it empty), or with a plain INSERT while none of them exists
 * (`newContactsOnly`: one that exists fails the statement with a unique violation, 23505, and the
 * caller rolls back and runs the batch again without it); a flip of `subscribed` records
 * contact.subscribed / contact.unsubscribed. Failed rows join the job's errors up to
 * `maxErrors`. Answers the progress after the batch, or undefined when nothing of the run is
 * staged there or the job's progress does not stand at `batchStart` once the batch before it
 * has committed or rolled back (another attempt moved it, or that batch failed): the caller
 * rolls back. So batches may be applied side by side and still commit in the file's order.
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
    newContactsOnly,
    previousStart,
  }: {
    stage: ImportStage;
    projectId: string;
    batchStart: number;
    /** The batch applied before this one in this run (its transaction may still be open). */
    previousStart: number | null;
    /** The file's records, once known (saved on the job). */
    total: number | null;
    defaultSubscribed: boolean;
    source: string;
    maxErrors: number;
    newContactsOnly: boolean;
  },
): Promise<number | undefined> {
  const variant = newContactsOnly ? INSERT_NEW : UPSERT;
  const [row] = await sql.query<{
    records: number;
    merged: number;
    written: number;
    processed: number | null;
  }>(
    variant.text,
    [
      stage.jobId,
      batchStart,
      projectId,
      defaultSubscribed,
      source,
      total,
      maxErrors,
      stage.stageNo,
      previousStart,
    ],
    variant.name,
  );
  if (!row || row.records === 0 || row.processed === null) return undefined;
  if (row.written !== row.merged)
    throw new Error(`An import batch wrote ${row.written} of its ${row.merged} contacts`);
  return row.processed;
}

/** The job's staging run, if one is left, and what it staged go (the job ended). */
export async function clearImportStaging(sql: Sql, { jobId }: { jobId: string }): Promise<void> {
  await sql.query(
    `WITH ended AS (DELETE FROM import_stages WHERE job_id = $1 RETURNING stage_no)
     DELETE FROM import_rows WHERE stage_no IN (SELECT stage_no FROM ended)`,
    [jobId],
  );
}
