// npm run bench:import — CSV import through the job path (HTTP upload, Temporal job, staging and
// set-based batches) next to its floor in the same run: the same rows written straight into
// `contacts` with one COPY. Each round runs the floor, then ours, each in a fresh project; medians
// decide. Settings: BENCH_IMPORT_ROWS (100000), BENCH_IMPORT_FILES (1; the rows are split over
// this many uploads, each at most 5 MB, so 1,000,000 rows go as 10 files), BENCH_ROUNDS (2),
// BENCH_PG_STATEMENTS=1 (top statements of our import), BENCH_WORKER_NODE_ARGS /
// BENCH_API_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { newId } from '../domain/shared/ids.js';
import { copyRows } from './lib/copy.js';
import { benchProject, cpuSeconds, formatRow, json, startBenchStack } from './lib/stack.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const FILES = Number(process.env.BENCH_IMPORT_FILES ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TARGET = 0.8;
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

/** The rows as FILES CSV files of (nearly) equal size. */
function csvFiles(tag: string): string[] {
  const files: string[] = [];
  const per = Math.ceil(ROWS / FILES);
  for (let start = 0; start < ROWS; start += per) {
    const lines = ['email,first_name,plan'];
    for (let i = start; i < Math.min(ROWS, start + per); i += 1) {
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
  const { readdir } = await import('node:fs/promises');
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
  const seconds = (from: number, to: number): string => ((to - from) / 1000).toFixed(2);
  // Where the time went: answering the uploads, the job waiting for a worker, the worker's run
  // (started -> finished, the database's clock), and seeing it finished (the polling).
  const phases = `upload ${seconds(startedAt, uploaded)} s, to a worker ${seconds(uploaded, firstStart)} s, run ${seconds(firstStart, lastFinish)} s, seen ${seconds(lastFinish, startedAt + ms)} s`;
  return { ms, created, phases };
}

/**
 * The floor: the same contacts in one COPY straight into `contacts`, no checks, no job. Ids are
 * UUID v7, made as the import makes them (random v4 ids would slow the floor's primary key).
 */
async function floor(db: pg.Client, projectId: string, tag: string): Promise<number> {
  const now = new Date().toISOString();
  const started = performance.now();
  await copyRows(
    db,
    `COPY contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at) FROM STDIN (FORMAT csv)`,
    function* () {
      for (let i = 0; i < ROWS; i += 1) {
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
    `SELECT calls, round(total_exec_time)::int AS ms,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
       FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 12`,
  );
  return rows.map(
    (r) => `${String(r.ms).padStart(7)} ms ${String(r.calls).padStart(7)} calls  ${r.query}`,
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
  log(
    `\nidle CPU s per s: api ${((await cpuSeconds(stack.apiPid)) - idleBefore.api) / 5}, worker ${((await cpuSeconds(workerPid)) - idleBefore.worker) / 5}, pg ${(((await postgresCpu(dataDir)) - idleBefore.pg) / 5).toFixed(3)}`,
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
  const floors: number[] = [];
  const ourTimes: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    await db.query('CHECKPOINT');
    const floorProject = await benchProject(stack.apiUrl);
    const pgBeforeFloor = await postgresCpu(dataDir);
    const floorMs = await floor(db, floorProject.id, randomUUID().slice(0, 8));
    const pgFloor = (await postgresCpu(dataDir)) - pgBeforeFloor;

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
  log(
    `\nmedians: floor (COPY) ${(floorMs / 1000).toFixed(2)} s, ${Math.round(ROWS / (floorMs / 1000))} rows/s`,
  );
  log(
    `         ours (upload + job) ${(ourMs / 1000).toFixed(2)} s, ${Math.round(ROWS / (ourMs / 1000))} rows/s`,
  );
  log(
    `ratio ours/floor (rows/s): ${ratio.toFixed(2)}  (target >= ${TARGET})  ${ratio >= TARGET ? 'PASS' : 'MISS'}`,
  );
} finally {
  await db.end().catch(() => undefined);
  await stack.stop();
}
