import { setImmediate } from 'node:timers/promises';
import {
  applyImportBatch,
  beginImportBatch,
  claimImportStage,
  endImportStage,
  importRowsCopyText,
  stageImportRows,
  type ImportStage,
} from '../../db/sql/import-rows.sql.js';
import { completeJob, readJobFile, setJobTotal, type JobRow } from '../../db/sql/jobs.sql.js';
import { isUniqueViolation, type Sql } from '../../db/sql/sql.js';
import { newId } from '../shared/ids.js';
import { csvRecords, type CsvRecord } from './csv-records.js';
import { importColumns } from './csv-rows.pure.js';
import { addRecord, finishBatch, newBatch } from './import-batches.pure.js';
import { MAX_REPORTED_JOB_ERRORS } from './job-result.pure.js';

export type Heartbeat = (progress: { processed: number; total: number | null }) => void;

/** How many imports this worker process runs now (one object per process, passed in). */
export interface ImportsRunning {
  count: number;
}

/** Thrown when the job's stored progress moved under us: another attempt is (or was) running. */
export class JobProgressConflict extends Error {}

/** A batch ready to stage: its COPY text and the records it stands for. */
interface ParsedBatch {
  batchStart: number;
  records: number;
  text: string;
}

const IMPORT_WRITE = { defaultSubscribed: true, source: 'import' } as const;
/** The stored file is read in slices of this size, parsing from the first (a 5 MB read took ~0.1 s). */
const FILE_SLICE_BYTES = 256 * 1024;
/**
 * How far staging may run ahead of the batch being applied, in rows: a whole upload (5 MB holds
 * ~100,000 rows), so the file is read once early and its total shows from then on; a file of
 * more rows (a raised limit) keeps this much staged at a time.
 */
const STAGED_AHEAD_ROWS = 200_000;
/**
 * Batches applied at once while the import is the only one in its worker: the second writes its
 * contacts while the first commits. Imports side by side already keep the cores busy, and each
 * applies one batch at a time (bench:import of 1,000,000 rows as 10 files, one run each: 0.81
 * of COPY with two at a time in every import, 0.89 with one, and more PostgreSQL CPU with two).
 */
const APPLIED_AT_ONCE = 2;

type ImportFile =
  | { kind: 'empty' }
  | { kind: 'bad-header'; message: string; total: number }
  | { kind: 'rows'; batches: AsyncGenerator<ParsedBatch>; counted: { total: number | null } };

/**
 * The job's file through the CSV parser once: the header is checked, then the records after
 * `from` (those before were applied by an earlier attempt) are checked and merged batch by batch
 * into COPY text. `counted.total` is the number of records once the last batch is made.
 */
async function readImportFile({
  stage,
  content,
  from,
  batchSize,
}: {
  stage: ImportStage;
  content: AsyncIterable<Buffer>;
  from: number;
  batchSize: number;
}): Promise<ImportFile> {
  const chunks = csvRecords(content);
  const first = await chunks.next();
  if (first.done) return { kind: 'empty' };
  const head = first.value[0] as CsvRecord;
  if ('error' in head) throw new Error(`The header row cannot be read: ${head.error.message}`);
  const rest = async function* (): AsyncGenerator<CsvRecord[]> {
    yield first.value.slice(1);
    yield* chunks;
  };
  const { columns, error } = importColumns(head.record);
  if (error) {
    let total = 0;
    for await (const chunk of rest()) total += chunk.length;
    return { kind: 'bad-header', message: error, total };
  }
  const counted: { total: number | null } = { total: null };
  const batches = async function* (): AsyncGenerator<ParsedBatch> {
    let total = 0;
    let batch = newBatch(from);
    const parsed = (): ParsedBatch => ({
      batchStart: batch.batchStart,
      records: batch.records,
      text: importRowsCopyText(stage, finishBatch(batch, { newId })),
    });
    for await (const chunk of rest()) {
      for (const item of chunk) {
        total += 1;
        if (total <= from) continue; // applied by an earlier attempt
        addRecord(batch, { columns, item });
        if (batch.records < batchSize) continue;
        yield parsed();
        batch = newBatch(total);
      }
      // A slice of the file is ~1 ms of work: the batch being applied goes on between slices.
      await setImmediate();
    }
    if (batch.records > 0) yield parsed();
    counted.total = total;
  };
  return { kind: 'rows', batches: batches(), counted };
}

/**
 * One staged batch in one transaction: a single statement applies it
 * to contacts and moves the job's progress and counts past it, guarded by the progress it starts
 * at (a retried attempt resumes after the last committed batch and counts every row once). While
 * no contact of the file has existed (`writes.newOnly`), the contacts are written with a plain
 * INSERT; the first that exists fails it whole, and from that batch on the upsert is used.
 * `begun` is called once the batch holds its lock (the batch after it may start then); the batch
 * before it (`previousStart`) may still be applying, and this one commits only after it.
 * Answers the progress after the batch.
 */
async function applyBatch({
  sql,
  job,
  stage,
  batchStart,
  previousStart,
  total,
  writes,
  begun,
}: {
  sql: Sql;
  job: JobRow;
  stage: ImportStage;
  batchStart: number;
  previousStart: number | null;
  total: number | null;
  writes: { newOnly: boolean };
  begun: () => void;
}): Promise<number> {
  const apply = (): Promise<number> =>
    sql.transaction(async (tx) => {
      await beginImportBatch(tx, { stage, batchStart });
      begun();
      const after = await applyImportBatch(tx, {
        stage,
        projectId: job.project_id,
        batchStart,
        previousStart,
        total,
        maxErrors: MAX_REPORTED_JOB_ERRORS,
        newContactsOnly: writes.newOnly,
        ...IMPORT_WRITE,
      });
      if (after === undefined)
        throw new JobProgressConflict(
          `Job ${job.id}: nothing of this run to apply at ${batchStart}`,
        );
      return after;
    });
  try {
    return await apply();
  } catch (error) {
    if (!writes.newOnly || !isUniqueViolation(error)) throw error;
    writes.newOnly = false;
    return apply();
  }
}

/** Wakes whoever waits (the stager for room, the applier for a staged batch) when either moves. */
function signal(): { changed: () => void; wait: () => Promise<void> } {
  let waiting: (() => void)[] = [];
  return {
    changed: () => {
      const woken = waiting;
      waiting = [];
      for (const wake of woken) wake();
    },
    wait: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
      }),
  };
}

/** A batch being applied: where it starts, when it holds its lock, how it ended (never rejects). */
interface Applying {
  batchStart: number;
  holdsLock: Promise<void>;
  outcome: Promise<{ after: number } | { error: unknown }>;
}

/**
 * Stages the file's batches (committed one by one) while applying those already staged, each
 * in a transaction of its own from the pool: parsing and COPY into import_rows overlap the
 * set-based writes to contacts, and two batches are applied at once (the second writes its
 * contacts while the first commits; their commits stay in the file's order). A batch that fails
 * is applied once more when no batch before it is left (a batch beside one that failed fails
 * too: the progress it needs was not made), and the run goes on one batch at a time; failing
 * again, it fails the run.
 * Staging stays at most STAGED_AHEAD_ROWS ahead. Answers the job's final progress and total.
 */
async function stageAndApply({
  sql,
  job,
  stage,
  file,
  from,
  knownTotal,
  heartbeat,
  imports,
}: {
  sql: Sql;
  job: JobRow;
  stage: ImportStage;
  file: Extract<ImportFile, { kind: 'rows' }>;
  from: number;
  knownTotal: number | null;
  heartbeat: Heartbeat;
  imports: ImportsRunning;
}): Promise<{ processed: number; total: number }> {
  let staged = from;
  let processed = from;
  let stagingDone = false;
  let failure: { error: unknown } | undefined;
  const progressed = signal();
  // Staged batches not begun yet, by their first record.
  const stagedStarts: number[] = [];

  const staging = (async () => {
    try {
      for await (const batch of file.batches) {
        while (staged - processed >= STAGED_AHEAD_ROWS && !failure) await progressed.wait();
        if (failure) return;
        if (!(await stageImportRows(sql, { stage, text: batch.text })))
          throw new JobProgressConflict(`Job ${job.id}: another run took over its staging`);
        staged = batch.batchStart + batch.records;
        stagedStarts.push(batch.batchStart);
        progressed.changed();
      }
      stagingDone = true;
    } catch (error) {
      failure ??= { error };
    } finally {
      progressed.changed();
    }
  })();

  const writes = { newOnly: true };
  // Oldest first; a batch begins once the one before it (the last here) holds its lock.
  const applying: Applying[] = [];
  // One at a time once a batch failed: a contact in two batches side by side can deadlock them
  // (each waits for the other), which PostgreSQL ends after deadlock_timeout (1 s by default).
  let failedOnce = false;
  const atOnce = (): number => (failedOnce || imports.count > 1 ? 1 : APPLIED_AT_ONCE);
  const begin = (batchStart: number, previousStart: number | null): Applying => {
    let begun = (): void => undefined;
    const holdsLock = new Promise<void>((resolve) => (begun = resolve));
    const total = knownTotal ?? file.counted.total;
    const outcome = applyBatch({ sql, job, stage, batchStart, previousStart, total, writes, begun })
      .then(
        (after) => ({ after }),
        (error: unknown) => {
          failedOnce = true;
          return { error };
        },
      )
      .finally(begun);
    return { batchStart, holdsLock, outcome };
  };

  try {
    for (;;) {
      if (applying.length < atOnce() && stagedStarts.length > 0) {
        const previous = applying.at(-1);
        if (previous) await previous.holdsLock;
        // A batch may have failed meanwhile: then none begins beside another.
        if (applying.length < atOnce())
          applying.push(begin(stagedStarts.shift() as number, previous?.batchStart ?? null));
        continue;
      }
      const oldest = applying.shift();
      if (oldest) {
        let outcome = await oldest.outcome;
        if ('error' in outcome) {
          // The batches begun after it end first (they fail: the progress they need was not
          // made), so that it is applied again alone; then each of them again, in turn.
          const later = applying.splice(0);
          await Promise.all(later.map((a) => a.outcome));
          stagedStarts.unshift(...later.map((a) => a.batchStart));
          outcome = await begin(oldest.batchStart, null).outcome;
        }
        if ('error' in outcome) throw outcome.error;
        processed = outcome.after;
        knownTotal ??= file.counted.total;
        progressed.changed();
        heartbeat({ processed, total: knownTotal });
        continue;
      }
      if (failure) throw failure.error;
      if (stagingDone) break;
      await progressed.wait();
    }
  } catch (error) {
    failure ??= { error };
    throw error;
  } finally {
    progressed.changed();
    await Promise.all(applying.map((a) => a.outcome));
    await staging;
  }
  return { processed, total: file.counted.total ?? processed };
}

/**
 * Imports the job's CSV: the file streams through the parser into COPY into a staging table,
 * and staged batches reach contacts through set-based statements, one transaction per batch.
 * This run first claims the staging (a run before it may have left rows or still be going).
 */
export async function runImport({
  sql,
  job,
  heartbeat,
  batchSize,
  imports,
}: {
  sql: Sql;
  job: JobRow;
  heartbeat: Heartbeat;
  batchSize: number;
  imports: ImportsRunning;
}): Promise<void> {
  const claimed = await claimImportStage(sql, { jobId: job.id });
  if (!claimed) return;
  const { stage, processed: from, total: knownTotal } = claimed;
  imports.count += 1;
  try {
    if (knownTotal !== null && from >= knownTotal) {
      await completeJob(sql, { jobId: job.id });
      return;
    }
    const content = await readJobFile(sql, { jobId: job.id, sliceBytes: FILE_SLICE_BYTES });
    if (!content) throw new Error(`Job ${job.id} has no file`);
    const file = await readImportFile({ stage, content, from, batchSize });
    if (file.kind === 'empty') {
      await sql.transaction(async (tx) => {
        await setJobTotal(tx, { jobId: job.id, total: 0 });
        await completeJob(tx, { jobId: job.id });
      });
      return;
    }
    if (file.kind === 'bad-header') {
      const result = {
        ...job.result,
        failed: file.total,
        errors: [{ row: 1, message: file.message }],
      };
      await sql.transaction(async (tx) => {
        await setJobTotal(tx, { jobId: job.id, total: file.total });
        await completeJob(tx, { jobId: job.id, processed: file.total, result });
      });
      return;
    }
    const done = await stageAndApply({
      sql,
      job,
      stage,
      file,
      from,
      knownTotal,
      heartbeat,
      imports,
    });
    await sql.transaction(async (tx) => {
      await setJobTotal(tx, { jobId: job.id, total: done.total });
      await completeJob(tx, { jobId: job.id });
    });
  } finally {
    imports.count -= 1;
    await endImportStage(sql, stage).catch(() => undefined);
  }
}
