import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  applyImportBatch,
  beginImportBatch,
  claimImportStage,
  importRowsCopyText,
  stageImportRows,
  type ImportStage,
} from '../../db/sql/import-rows.sql.js';
import { insertImportJob, startJob, type JobRow } from '../../db/sql/jobs.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { emptyJobResult } from '../../domain/jobs/job-result.pure.js';
import { runImport } from '../../domain/jobs/run-import.js';
import { databasePool, seedProjectRows } from '../helpers/database.js';

// An import applies two staged batches at once: the second writes its contacts while the first
// is still open, then waits for the first's transaction to end (the lock the first took when it
// began) and moves the job's progress only if the first committed. So the job's progress and
// counts move batch by batch in the file's order whatever the timing.

const { sql } = databasePool({ max: 4 });

async function stagedJob(batches: { start: number; rows: { email: string; plan: string }[] }[]) {
  const { projectId } = await seedProjectRows(sql, { name: 'import order', contacts: 0 });
  const jobId = randomUUID();
  await sql.query(
    `INSERT INTO jobs (id, project_id, type, status, input, processed, result, created_at)
     VALUES ($1, $2, 'IMPORT', 'RUNNING', '{}', 0, $3::jsonb, now())`,
    [jobId, projectId, JSON.stringify(emptyJobResult())],
  );
  const claimed = await claimImportStage(sql, { jobId });
  const stage = (claimed as { stage: ImportStage }).stage;
  for (const { start, rows } of batches) {
    const staged = rows.map((r, i) => ({
      batchStart: start,
      sheetRow: start + i + 2,
      id: randomUUID(),
      email: r.email,
      subscribed: null,
      data: { plan: r.plan },
      occurrences: 1,
      error: null,
    }));
    expect(await stageImportRows(sql, { stage, text: importRowsCopyText(stage, staged) })).toBe(
      true,
    );
  }
  return { projectId, jobId, stage };
}

const apply = (
  tx: Sql,
  {
    stage,
    projectId,
    batchStart,
    previousStart,
  }: { stage: ImportStage; projectId: string; batchStart: number; previousStart: number | null },
) =>
  applyImportBatch(tx, {
    stage,
    projectId,
    batchStart,
    previousStart,
    total: null,
    defaultSubscribed: true,
    source: 'import',
    maxErrors: 100,
    newContactsOnly: false,
  });

/** A promise and the functions that settle it. */
function deferred<T = void>() {
  let resolve = (_: T): void => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Until the backend `pid` waits on an advisory lock (the second batch waiting for the first). */
async function waitsOnAdvisoryLock(pid: Promise<number>): Promise<void> {
  const backend = await pid;
  for (let i = 0; i < 1200; i += 1) {
    const [row] = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE pid = $1 AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
      [backend],
    );
    if ((row?.n ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the second batch did not wait for the first');
}

const progress = async (jobId: string) =>
  (
    await sql.query<{ processed: number; created: number; updated: number }>(
      `SELECT processed, (result ->> 'created')::int AS created, (result ->> 'updated')::int AS updated
         FROM jobs WHERE id = $1`,
      [jobId],
    )
  )[0];

const plans = async (projectId: string) =>
  Object.fromEntries(
    (
      await sql.query<{ email: string; plan: string }>(
        `SELECT email, data ->> 'plan' AS plan FROM contacts WHERE project_id = $1`,
        [projectId],
      )
    ).map((r) => [r.email, r.plan]),
  );

/**
 * The first batch begins (takes its lock) and waits for `firstMay`; the second begins beside
 * it. Answers each batch's outcome (its progress, or the error it rolled back with).
 */
async function twoBatches({
  job,
  second,
  firstEnds,
}: {
  job: Awaited<ReturnType<typeof stagedJob>>;
  second: number;
  firstEnds: 'commit' | 'rollback';
}) {
  const { stage, projectId } = job;
  const firstBegun = deferred();
  const firstMay = deferred();
  const first = sql
    .transaction(async (tx) => {
      await beginImportBatch(tx, { stage, batchStart: 0 });
      firstBegun.resolve();
      await firstMay.promise;
      const after = await apply(tx, { stage, projectId, batchStart: 0, previousStart: null });
      if (firstEnds === 'rollback') throw new Error('the first batch fails');
      return after;
    })
    .catch((error: Error) => error);
  await firstBegun.promise;
  const secondPid = deferred<number>();
  const secondDone = sql
    .transaction(async (tx) => {
      const [me] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      secondPid.resolve((me as { pid: number }).pid);
      await beginImportBatch(tx, { stage, batchStart: second });
      const after = await apply(tx, { stage, projectId, batchStart: second, previousStart: 0 });
      if (after === undefined) throw new Error('the progress did not stand at its start');
      return after;
    })
    .catch((error: Error) => error);
  return {
    first,
    second: secondDone,
    secondWaits: () => waitsOnAdvisoryLock(secondPid.promise),
    letFirstGo: () => firstMay.resolve(),
  };
}

describe('import batches applied side by side', () => {
  it('the second writes beside the first, waits for its commit, and moves the progress after it', async () => {
    const job = await stagedJob([
      { start: 0, rows: [{ email: 'a@example.com', plan: 'one' }] },
      { start: 1, rows: [{ email: 'b@example.com', plan: 'two' }] },
    ]);
    const run = await twoBatches({ job, second: 1, firstEnds: 'commit' });
    try {
      await run.secondWaits();
      expect(await progress(job.jobId)).toMatchObject({ processed: 0 });
    } finally {
      run.letFirstGo();
    }
    expect(await run.first).toBe(1);
    expect(await run.second).toBe(2);
    expect(await progress(job.jobId)).toEqual({ processed: 2, created: 2, updated: 0 });
    expect(await plans(job.projectId)).toEqual({ 'a@example.com': 'one', 'b@example.com': 'two' });
  });

  it('the second rolls back when the first does, leaving the progress and contacts as they were', async () => {
    const job = await stagedJob([
      { start: 0, rows: [{ email: 'a@example.com', plan: 'one' }] },
      { start: 1, rows: [{ email: 'b@example.com', plan: 'two' }] },
    ]);
    const run = await twoBatches({ job, second: 1, firstEnds: 'rollback' });
    await run.secondWaits().finally(run.letFirstGo);
    expect(await run.first).toBeInstanceOf(Error);
    expect(String(await run.second)).toMatch(/did not stand at its start/);
    expect(await progress(job.jobId)).toEqual({ processed: 0, created: 0, updated: 0 });
    expect(await plans(job.projectId)).toEqual({});
  });

  it('a contact written by both: one is ended as a deadlock, and applied again in order, the later values win', async () => {
    const job = await stagedJob([
      {
        start: 0,
        rows: [
          { email: 'a@example.com', plan: 'one' },
          { email: 'both@example.com', plan: 'first' },
        ],
      },
      {
        start: 2,
        rows: [
          { email: 'both@example.com', plan: 'second' },
          { email: 'b@example.com', plan: 'two' },
        ],
      },
    ]);
    // The second writes both@ first and waits for the first, which then waits for it on both@.
    const run = await twoBatches({ job, second: 2, firstEnds: 'commit' });
    await run.secondWaits().finally(run.letFirstGo);
    const outcomes = [await run.first, await run.second];
    expect(
      outcomes.filter((o) => o instanceof Error && 'code' in o && o.code === '40P01'),
    ).toHaveLength(1);
    // As the import does then: each batch that failed is applied again, one at a time, in order.
    for (const [i, batchStart] of [0, 2].entries()) {
      if (!(outcomes[i] instanceof Error)) continue;
      const after = await sql.transaction(async (tx) => {
        await beginImportBatch(tx, { stage: job.stage, batchStart });
        return apply(tx, { ...job, batchStart, previousStart: null });
      });
      expect(after).toBe(batchStart + 2);
    }
    expect(await progress(job.jobId)).toEqual({ processed: 4, created: 3, updated: 1 });
    expect(await plans(job.projectId)).toEqual({
      'a@example.com': 'one',
      'both@example.com': 'second',
      'b@example.com': 'two',
    });
  });

  it('an import whose batches share contacts ends exact, each contact with its last values', async () => {
    // Each batch after the first begins with the last 10 contacts of the batch before it: the
    // second of two batches side by side writes them before the first does, and the two
    // deadlock; the import applies them again in order, one at a time.
    const { projectId } = await seedProjectRows(sql, { name: 'import shared', contacts: 0 });
    const lines = ['email,plan'];
    const last = new Map<string, string>();
    for (let i = 0; i < 2000; i += 1) {
      const n = i >= 500 && i % 500 < 10 ? i - 10 : i;
      lines.push(`c${n}@example.com,p${i}`);
      last.set(`c${n}@example.com`, `p${i}`);
    }
    const jobId = randomUUID();
    await insertImportJob(sql, {
      id: jobId,
      projectId,
      input: {},
      result: emptyJobResult(),
      filename: 'shared.csv',
      content: Buffer.from(`${lines.join('\n')}\n`),
    });
    const deadlocks = async () =>
      (
        await sql.query<{ n: number }>(
          'SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()',
        )
      )[0]?.n ?? 0;
    const before = await deadlocks();
    const job = (await startJob(sql, { jobId })) as JobRow;
    await runImport({
      sql,
      job,
      heartbeat: () => undefined,
      batchSize: 500,
      imports: { count: 0 },
    });
    console.log(`import of shared batches: ${(await deadlocks()) - before} deadlock(s) resolved`);
    expect(await progress(jobId)).toEqual({ processed: 2000, created: 1970, updated: 30 });
    expect(await plans(projectId)).toEqual(Object.fromEntries(last));
  });
});
