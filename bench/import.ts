// npm run bench:import — CSV import through the job path (HTTP upload, Temporal job, staging by
// COPY and set-based batches) next to its floor in the same run: the same rows written straight
// into `contacts` with one COPY. One untimed pass of each first (nothing pays a cold start); then
// each round runs the floor, then ours, each in a fresh project and after a VACUUM (untimed);
// medians decide. The last lines give the figures, the ratio and PASS or MISS. Settings:
// BENCH_IMPORT_ROWS (100000),
// BENCH_IMPORT_FILES (1; the rows go as this many uploads of at most 5 MB each, so 1,000,000 rows
// go as 10 files, imported side by side as the worker takes them), BENCH_ROUNDS (3),
// IMPORT_BATCH_SIZE (passed to the worker; its default otherwise), BENCH_PG_STATEMENTS=1 (top
// statements of our import; with BENCH_PG_SETTINGS=pg_stat_statements.track_planning=on, their
// planning too), BENCH_WORKER_NODE_ARGS / BENCH_API_NODE_ARGS (e.g. `--cpu-prof
// --cpu-prof-dir=/tmp/prof`).
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { newId } from '../domain/shared/ids.js';
import { copyRows } from './lib/copy.js';
import { benchProject, cpuSeconds, formatRow, json, startBenchStack } from './lib/stack.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const FILES = Number(process.env.BENCH_IMPORT_FILES ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET = 0.8;
const WARM_ROWS = 10_000;
// How often the job's status is read: each read is a request the API and PostgreSQL serve while
// the import runs; 100 ms adds at most that to a figure of several seconds.
const POLL_MS = 100;
const UPLOAD_LIMIT = 5 * 1024 * 1024;
const log = (line: string): void => console.log(line);

const row = (tag: string, i: number): { email: string; first_name: string; plan: string } => ({
  email: `import-${i}-${tag}@bench.test`,
  first_name: `Name${i}`,
  plan: i % 2 ? 'pro' : 'free',
});

/** `rows` rows as `count` CSV files of (nearly) equal size. */
function csvFiles(tag: string, rows = ROWS, count = FILES): string[] {
  const files: string[] = [];
  const per = Math.ceil(rows / count);
  for (let start = 0; start < rows; start += per) {
    const lines = ['email,first_name,plan'];
    for (let i = start; i < Math.min(rows, start + per); i += 1) {
      const r = row(tag, i);
      lines.push(`${r.email},${r.first_name},${r.plan}`);
    }
    const csv = `${lines.join('\n')}\n`;
    if (Buffer.byteLength(csv) > UPLOAD_LIMIT)
      throw new Error(`a file of ${per} rows is over 5 MB: raise BENCH_IMPORT_FILES`);
    files.push(csv);
  }
  return files;
}

/** CPU seconds of our PostgreSQL cluster: the postmaster, its live backends and the exited ones. */
async function postgresCpu(dataDir: string): Promise<number> {
  const pidFile = await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
  const postmaster = Number(pidFile.split('\n')[0]);
  let total = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(entry);
    const ppid = Number(fields[1]);
    if (pid !== postmaster && ppid !== postmaster) continue;
    total += Number(fields[11]) + Number(fields[12]);
    if (pid === postmaster) total += Number(fields[13]) + Number(fields[14]);
  }
  return total / 100;
}

async function ours(
  apiUrl: string,
  key: string,
  files: string[],
): Promise<{ ms: number; created: number; phases: string }> {
  const headers = { authorization: `Bearer ${key}` };
  const started = performance.now();
  const startedAt = Date.now();
  const jobIds: string[] = [];
  for (const [i, csv] of files.entries()) {
    const form = new FormData();
    form.append('file', new Blob([csv]), `bench-${i}.csv`);
    const res = await fetch(`${apiUrl}/contacts/import`, { method: 'POST', headers, body: form });
    const body = (await res.json()) as { jobId: string };
    if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
    jobIds.push(body.jobId);
  }
  const uploaded = Date.now();
  let created = 0;
  let firstStart = Infinity;
  let lastFinish = 0;
  for (const jobId of jobIds) {
    for (;;) {
      const job = await json(`${apiUrl}/contacts/import/${jobId}`, { headers });
      if (job.body.status === 'COMPLETED') {
        created += job.body.result.created as number;
        firstStart = Math.min(firstStart, Date.parse(job.body.startedAt));
        lastFinish = Math.max(lastFinish, Date.parse(job.body.finishedAt));
        break;
      }
      if (job.body.status === 'FAILED')
        throw new Error(`import failed: ${JSON.stringify(job.body.result)}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
  const ms = performance.now() - started;
  const at = (time: number): string => ((time - startedAt) / 1000).toFixed(2);
  // Where the time went, from the first upload: the uploads answered, the first job begun by a
  // worker and the last one finished (the database's clock), and that seen by polling.
  const phases = `uploads answered at ${at(uploaded)} s, first job began at ${at(firstStart)} s, last ended at ${at(lastFinish)} s, seen at ${at(startedAt + ms)} s`;
  return { ms, created, phases };
}

/**
 * Untimed, between the timed parts: the autovacuum that a part's million inserted rows call for
 * (visibility map, statistics, the staging table's dead rows) otherwise starts after that part
 * ends and runs through the next one, so the floor and ours took turns paying each other's
 * (PostgreSQL 57 against 76 CPU s in rounds of one run, the floor 31 against 44 s). Each part now
 * starts from a vacuumed, analysed database and pays only what runs while it runs.
 */
async function settle(db: pg.Client): Promise<void> {
  await db.query('VACUUM (ANALYZE)');
}

/**
 * The floor: the same contacts in one COPY straight into `contacts`, no checks, no job. Ids are
 * UUID v7, made as the import makes them (random v4 ids would slow the floor's primary key).
 */
async function floor(db: pg.Client, projectId: string, tag: string, rows = ROWS): Promise<number> {
  const now = new Date().toISOString();
  const started = performance.now();
  await copyRows(
    db,
    `COPY contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at) FROM STDIN (FORMAT csv)`,
    function* () {
      for (let i = 0; i < rows; i += 1) {
        const r = row(tag, i);
        const data = JSON.stringify({ first_name: r.first_name, plan: r.plan }).replace(/"/g, '""');
        yield `${newId()},${projectId},${r.email},true,"${data}",${now},${now},${now}\n`;
      }
    },
  );
  return performance.now() - started;
}

async function topStatements(db: pg.Client): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT calls, round(total_exec_time)::int AS ms, round(total_plan_time)::int AS plan_ms,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
       FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT 12`,
  );
  // Planning time is counted with BENCH_PG_SETTINGS=pg_stat_statements.track_planning=on.
  return rows.map(
    (r) =>
      `${String(r.ms).padStart(7)} ms ${String(r.plan_ms).padStart(6)} plan ms ${String(r.calls).padStart(6)} calls  ${r.query}`,
  );
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

// IMPORT_BATCH_SIZE, when set, reaches the worker (the default is the one users get).
const stack = await startBenchStack(log, {
  env: process.env.IMPORT_BATCH_SIZE ? { IMPORT_BATCH_SIZE: process.env.IMPORT_BATCH_SIZE } : {},
});
const db = new pg.Client({ connectionString: stack.databaseUrl });
/** Printed after the stack has stopped, so that they are the last lines. */
const summary: string[] = [];
try {
  await db.connect();
  const statements = process.env.BENCH_PG_STATEMENTS === '1';
  if (statements) await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const worker = await stack.startWorker();
  const workerPid = worker.child.pid as number;
  const dataDir = stack.env.DATA_DIR as string;
  // What the processes use doing nothing (lanes polling, Temporal), so the figures below can be
  // read net of it.
  const idleBefore = {
    api: await cpuSeconds(stack.apiPid),
    worker: await cpuSeconds(workerPid),
    pg: await postgresCpu(dataDir),
  };
  await new Promise((r) => setTimeout(r, 5000));
  const idle = {
    api: ((await cpuSeconds(stack.apiPid)) - idleBefore.api) / 5,
    worker: ((await cpuSeconds(workerPid)) - idleBefore.worker) / 5,
    pg: ((await postgresCpu(dataDir)) - idleBefore.pg) / 5,
  };
  log(
    `\nidle, CPU s per s: api ${idle.api.toFixed(3)}, worker ${idle.worker.toFixed(3)}, postgres ${idle.pg.toFixed(3)}`,
  );
  log(
    `\nCSV import of ${ROWS.toLocaleString('en')} rows in ${FILES} file(s), ${ROUNDS} round(s)\n`,
  );
  const widths = [8, 12, 12, 10, 10, 10, 10, 10];
  log(
    formatRow(
      ['round', 'floor s', 'ours s', 'ratio', 'api cpu', 'worker', 'pg cpu', 'pg floor'],
      widths,
    ),
  );
  // Both paths once, untimed, so that no round pays for a cold start (code not yet optimised,
  // statements not yet prepared, caches empty).
  const warmProject = await benchProject(stack.apiUrl);
  await floor(db, (await benchProject(stack.apiUrl)).id, randomUUID().slice(0, 8), WARM_ROWS);
  await ours(stack.apiUrl, warmProject.secretKey, csvFiles(randomUUID().slice(0, 8), WARM_ROWS, 1));
  await settle(db);
  const floors: number[] = [];
  const ourTimes: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    await db.query('CHECKPOINT');
    const floorProject = await benchProject(stack.apiUrl);
    const pgBeforeFloor = await postgresCpu(dataDir);
    const floorMs = await floor(db, floorProject.id, randomUUID().slice(0, 8));
    const pgFloor = (await postgresCpu(dataDir)) - pgBeforeFloor;
    await settle(db);

    const tag = randomUUID().slice(0, 8);
    const files = csvFiles(tag);
    const project = await benchProject(stack.apiUrl);
    await db.query('CHECKPOINT');
    if (statements) await db.query('SELECT pg_stat_statements_reset()');
    const before = {
      api: await cpuSeconds(stack.apiPid),
      worker: await cpuSeconds(workerPid),
      pg: await postgresCpu(dataDir),
    };
    const result = await ours(stack.apiUrl, project.secretKey, files);
    const cpu = {
      api: (await cpuSeconds(stack.apiPid)) - before.api,
      worker: (await cpuSeconds(workerPid)) - before.worker,
      pg: (await postgresCpu(dataDir)) - before.pg,
    };
    const { rows: counted } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM contacts WHERE project_id = $1',
      [project.id],
    );
    if (result.created !== ROWS || counted[0]?.n !== ROWS)
      throw new Error(`created ${result.created}, stored ${counted[0]?.n}, expected ${ROWS}`);
    const { rows: sample } = await db.query<{ same: boolean }>(
      `SELECT data = '{"first_name": "Name7", "plan": "pro"}'::jsonb AS same
         FROM contacts WHERE project_id = $1 AND email = $2`,
      [project.id, row(tag, 7).email],
    );
    if (!sample[0]?.same) throw new Error('row 7 was not stored with its data');
    if (statements) for (const line of await topStatements(db)) log(`  ${line}`);
    await settle(db);

    floors.push(floorMs);
    ourTimes.push(result.ms);
    log(
      formatRow(
        [
          round,
          (floorMs / 1000).toFixed(2),
          (result.ms / 1000).toFixed(2),
          (floorMs / result.ms).toFixed(2),
          cpu.api.toFixed(2),
          cpu.worker.toFixed(2),
          cpu.pg.toFixed(2),
          pgFloor.toFixed(2),
        ],
        widths,
      ),
    );
    log(`         ours: ${result.phases}`);
  }
  const floorMs = median(floors);
  const ourMs = median(ourTimes);
  const ratio = floorMs / ourMs;
  const rate = (ms: number): string =>
    `${Math.round(ROWS / (ms / 1000)).toLocaleString('en')} rows/s`;
  summary.push(
    `\nCSV import of ${ROWS.toLocaleString('en')} rows (${FILES} file(s)), medians of ${ROUNDS} round(s):`,
    `  floor (one COPY into contacts)   ${(floorMs / 1000).toFixed(2)} s  ${rate(floorMs)}`,
    `  ours (upload + job, to the end)  ${(ourMs / 1000).toFixed(2)} s  ${rate(ourMs)}`,
    `ratio ours/floor (rows/s): ${ratio.toFixed(2)}  (target >= ${TARGET})  ${ratio >= TARGET ? 'PASS' : 'MISS'}`,
  );
} finally {
  await db.end().catch(() => undefined);
  await stack.stop();
}
for (const line of summary) log(line);
