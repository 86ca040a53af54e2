// npm run bench:track — POST /v1/track under sustained load against the full stack, and a
// 100,000-row CSV import, each next to a floor measured in the same run. Prints figures, the CPU
// each process spent per request (server, worker, PostgreSQL, the load client), the ratio
// ours/floor and issue 28's targets with PASS/MISS (req/s >= 0.9 of the floor, p99 <= 1.5x the
// floor's). As production runs: the worker is up, so its dispatch lanes wake on every tracked
// event's notice, the project has an enabled workflow (its trigger never tracked here, so the
// events enter no outbox), and the per-project rate limiter counts every request (its limit
// set out of reach: at the default 1,000 a minute one project could not be loaded at all;
// rate-limit tests hold the limit). Settings: BENCH_SECONDS (20), BENCH_CONNECTIONS (50),
// BENCH_IMPORT_ROWS (100000); BENCH_PG_STATEMENTS=1 prints PostgreSQL's time by statement during
// ours.
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { freePort } from '../runtime/embedded/free-port.js';
import { runEntryPoint } from '../test/helpers/processes.js';
import { idleWorkflows } from './lib/bench-workflows.js';
import { cpuDelta, cpuSnapshot } from './lib/cpu.js';
import { resetStatements, topStatements } from './lib/pg-statements.js';
import { benchProject, formatRow, json, startBenchStack } from './lib/stack.js';
import { CONNECTIONS, load, seedExisting, type LoadFigures } from './lib/track-load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const log = (line: string): void => console.log(line);

function csvRows(rows: number): string {
  const lines = ['email,first_name,plan'];
  for (let i = 0; i < rows; i += 1)
    lines.push(`import-${i}@bench.test,Name${i},${i % 2 ? 'pro' : 'free'}`);
  return `${lines.join('\n')}\n`;
}

async function importThroughApi(url: string, key: string, csv: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([csv]), 'bench.csv');
  const started = performance.now();
  const res = await fetch(`${url}/contacts/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const { jobId } = (await res.json()) as { jobId: string };
  for (;;) {
    const job = await json(`${url}/contacts/import/${jobId}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (job.body.status === 'COMPLETED') {
      if (job.body.result.created !== IMPORT_ROWS)
        throw new Error(`import created ${job.body.result.created}`);
      return performance.now() - started;
    }
    if (job.body.status === 'FAILED')
      throw new Error(`import failed: ${JSON.stringify(job.body.result)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function importWithCopy(
  databaseUrl: string,
  projectId: string,
  rows: number,
): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  const stream = client.query(
    copyFrom(
      `COPY contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at) FROM STDIN (FORMAT csv)`,
    ),
  );
  const now = new Date().toISOString();
  async function* lines() {
    for (let i = 0; i < rows; i += 1) {
      const data = JSON.stringify({ first_name: `Name${i}`, plan: i % 2 ? 'pro' : 'free' }).replace(
        /"/g,
        '""',
      );
      yield `${randomUUID()},${projectId},import-${i}@bench.test,true,"${data}",${now},${now},${now}\n`;
    }
  }
  await pipeline(Readable.from(lines()), stream);
  const elapsed = performance.now() - started;
  await client.end();
  return elapsed;
}

const stack = await startBenchStack(log);
try {
  log(
    `\nPOST /v1/track: ${CONNECTIONS} connections, ${SECONDS} s each, half new and half existing contacts; worker up, one idle workflow\n`,
  );
  const worker = await stack.startWorker();
  /** A load's figures, and the CPU each process spent on it per request (microseconds). */
  const measured = async (
    server: number,
    run: () => Promise<LoadFigures>,
  ): Promise<[LoadFigures, Record<string, number>]> => {
    const named = { server, worker: worker.child.pid as number, bench: process.pid };
    const scope = { postgresPid: stack.postgresPid, temporalPid: stack.temporalPid };
    const before = await cpuSnapshot(named, scope);
    const figures = await run();
    const used = cpuDelta(before, await cpuSnapshot(named, scope));
    const perRequest = Object.fromEntries(
      Object.entries(used).map(([k, v]) => [k, Math.round((v * 1e6) / figures.requests)]),
    );
    return [figures, perRequest];
  };
  const ours = await benchProject(stack.apiUrl);
  await idleWorkflows(stack, ours.secretKey, 1);
  await seedExisting(stack.apiUrl, ours.publicKey);
  await load(stack.apiUrl, ours.publicKey, 'warm', 3);
  await resetStatements(stack.databaseUrl);
  const [ourFigures, ourCpu] = await measured(stack.apiPid, () =>
    load(stack.apiUrl, ours.publicKey, 'ours', SECONDS),
  );
  const statements = await topStatements(stack.databaseUrl, 10);
  if (statements) log(`PostgreSQL's time by statement during ours:\n${statements}\n`);

  const floorProject = await benchProject(stack.apiUrl);
  const floorPort = await freePort();
  const floor = runEntryPoint('bench/lib/track-floor-server.ts', {
    DATABASE_URL: stack.databaseUrl,
    PROJECT_ID: floorProject.id,
    PORT: String(floorPort),
  });
  await floor.waitForOutput(/floor listening/);
  const floorUrl = `http://127.0.0.1:${floorPort}`;
  await seedExisting(floorUrl, '');
  await load(floorUrl, undefined, 'warm', 3);
  const [floorFigures, floorCpu] = await measured(floor.child.pid as number, () =>
    load(floorUrl, undefined, 'floor', SECONDS),
  );
  await floor.stop();

  const widths = [22, 10, 10, 10, 8, 8];
  log(formatRow(['', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non2xx'], widths));
  for (const [name, f] of [
    ['ours (full API)', ourFigures],
    ['floor (pg + node:http)', floorFigures],
  ] as const) {
    log(formatRow([name, f.rps, f.p50, f.p99, f.errors, f.non2xx], widths));
  }
  // The server is the API for ours and the floor's process for the floor; the bench runs the
  // load client; the worker drains the automation outbox both sides' events enter.
  const cpuLine = (us: Record<string, number>): string =>
    `server ${us.server} + worker ${us.worker} + postgres ${us.postgres} + load client ${us.bench}`;
  log(`\nCPU us per request, ours:  ${cpuLine(ourCpu)}`);
  log(`CPU us per request, floor: ${cpuLine(floorCpu)}`);
  const rpsRatio = ourFigures.rps / floorFigures.rps;
  const p99Ratio = ourFigures.p99 / floorFigures.p99;
  log(`\nratio ours/floor (req/s): ${rpsRatio.toFixed(2)}; p99 ours/floor: ${p99Ratio.toFixed(2)}`);
  log('targets:');
  log(`  ${rpsRatio >= 0.9 ? 'PASS' : 'MISS'}  req/s >= 0.9 of the floor: ${rpsRatio.toFixed(2)}`);
  log(`  ${p99Ratio <= 1.5 ? 'PASS' : 'MISS'}  p99 <= 1.5x the floor's: ${p99Ratio.toFixed(2)}`);

  log(`\nCSV import of ${IMPORT_ROWS.toLocaleString('en')} rows\n`);
  const csv = csvRows(IMPORT_ROWS);
  const importProject = await benchProject(stack.apiUrl);
  const apiMs = await importThroughApi(stack.apiUrl, importProject.secretKey, csv);
  const copyProject = await benchProject(stack.apiUrl);
  const copyMs = await importWithCopy(stack.databaseUrl, copyProject.id, IMPORT_ROWS);
  log(formatRow(['', 'seconds', 'rows/s'], [28, 10, 10]));
  log(
    formatRow(
      [
        'ours (upload, job, batches)',
        (apiMs / 1000).toFixed(2),
        Math.round(IMPORT_ROWS / (apiMs / 1000)),
      ],
      [28, 10, 10],
    ),
  );
  log(
    formatRow(
      ['floor (COPY)', (copyMs / 1000).toFixed(2), Math.round(IMPORT_ROWS / (copyMs / 1000))],
      [28, 10, 10],
    ),
  );
  log(`\nratio ours/floor (rows/s): ${(copyMs / apiMs).toFixed(2)}`);
} finally {
  await stack.stop();
}
