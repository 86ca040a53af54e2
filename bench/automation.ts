// npm run bench:automation — automation against the full stack, each next to a floor measured
// in the same run:
// 1. BENCH_EXECUTIONS (2000) tracked events that each trigger [UPDATE_CONTACT -> DELAY 1 s ->
//    EXIT]: executions completed per second, against as many trivial workflows started directly
//    with the Temporal client on the same server (target >= 0.5), and track -> execution start
//    p50/p99.
// 2. bench:track's load on a project with 10 enabled workflows whose triggers never match and
//    1,000 WAITING executions of other contacts, against the same load on a project with no
//    workflows (target >= 0.9), interleaved over BENCH_ROUNDS (2) rounds of BENCH_SECONDS (20).
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import pLimit from 'p-limit';
import pg from 'pg';
import { api, idleWorkflows, workflow } from './lib/bench-workflows.js';
import {
  benchProject,
  cpuSeconds,
  formatRow,
  startBenchStack,
  type BenchStack,
} from './lib/stack.js';
import { load, seedExisting, type LoadFigures } from './lib/track-load.js';

const EXECUTIONS = Number(process.env.BENCH_EXECUTIONS ?? 2000);
const WAITING = Number(process.env.BENCH_WAITING ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
// As many requests (or starts) in flight as bench:track's connections.
const CONCURRENCY = Number(process.env.BENCH_CONNECTIONS ?? 50);
// Which parts to run (1, 2 or both).
const PARTS = (process.env.BENCH_PARTS ?? '1,2').split(',');
const log = (line: string): void => console.log(line);

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;
};

async function trackMany(
  stack: BenchStack,
  key: string,
  { count, event, prefix }: { count: number; event: string; prefix: string },
): Promise<number> {
  const limit = pLimit(CONCURRENCY);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      limit(() =>
        api(stack, key, 'POST', '/v1/track', { email: `${prefix}-${i}@bench.test`, event }),
      ),
    ),
  );
  return started;
}

async function waitForCount(db: pg.Client, sql: string, params: unknown[], count: number) {
  for (;;) {
    const { rows } = await db.query<{ n: number }>(sql, params);
    if ((rows[0]?.n ?? 0) >= count) return performance.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** CPU seconds per 1,000 runs spent by the Temporal server, our worker, the API and this process. */
async function cpuOf<T>(work: () => Promise<T>): Promise<[T, Record<string, number>]> {
  const pids = { temporal: stack.temporalPid, worker: workerPid, api: stack.apiPid };
  const before = Object.fromEntries(
    await Promise.all(Object.entries(pids).map(async ([k, pid]) => [k, await cpuSeconds(pid)])),
  );
  const bench = process.cpuUsage();
  const result = await work();
  const used: Record<string, number> = {};
  for (const [k, pid] of Object.entries(pids)) {
    used[k] = ((await cpuSeconds(pid)) - (before[k] as number)) * (1000 / EXECUTIONS);
  }
  const own = process.cpuUsage(bench);
  used.bench = ((own.user + own.system) / 1e6) * (1000 / EXECUTIONS);
  return [result, used];
}

/** Part 1, ours: executions completed per second and track -> start latencies. */
async function executionsThroughput(stack: BenchStack, db: pg.Client) {
  const project = await benchProject(stack.apiUrl);
  const workflowId = await workflow(stack, project.secretKey, {
    event: 'signup',
    steps: [
      { type: 'UPDATE_CONTACT', config: { data: { onboarded: true } } },
      { type: 'DELAY', config: { amount: 1, unit: 'seconds' } },
      { type: 'EXIT', config: { reason: 'done' } },
    ],
  });
  const started = await trackMany(stack, project.publicKey, {
    count: EXECUTIONS,
    event: 'signup',
    prefix: 'flow',
  });
  const finished = await waitForCount(
    db,
    `SELECT count(*)::int AS n FROM executions WHERE workflow_id = $1 AND status = 'EXITED'`,
    [workflowId],
    EXECUTIONS,
  );
  const { rows } = await db.query<{ to_start: number; to_first_step: number }>(
    `SELECT extract(epoch FROM x.started_at - e.created_at) * 1000 AS to_start,
            extract(epoch FROM s.started_at - e.created_at) * 1000 AS to_first_step
       FROM executions x JOIN events e ON e.id = x.trigger_event_id
       JOIN execution_steps s ON s.execution_id = x.id AND s.seq = 1
      WHERE x.workflow_id = $1`,
    [workflowId],
  );
  const [phases] = (
    await db.query<Record<string, number>>(
      `SELECT extract(epoch FROM max(e.created_at) - min(e.created_at)) AS tracked,
              extract(epoch FROM max(x.started_at) - min(e.created_at)) AS started,
              extract(epoch FROM max(s.started_at) - min(e.created_at)) AS first_steps,
              extract(epoch FROM max(x.finished_at) - min(e.created_at)) AS ended
         FROM executions x JOIN events e ON e.id = x.trigger_event_id
         JOIN execution_steps s ON s.execution_id = x.id AND s.seq = 1
        WHERE x.workflow_id = $1`,
      [workflowId],
    )
  ).rows;
  return {
    phases,
    perSecond: EXECUTIONS / ((finished - started) / 1000),
    seconds: (finished - started) / 1000,
    toStart: rows.map((r) => Number(r.to_start)),
    toFirstStep: rows.map((r) => Number(r.to_first_step)),
  };
}

/** Part 1, unloaded: events tracked one at a time, track -> first step begun. */
async function unloadedLatency(stack: BenchStack, db: pg.Client, count = 100) {
  const project = await benchProject(stack.apiUrl);
  const workflowId = await workflow(stack, project.secretKey, {
    event: 'signup',
    steps: [{ type: 'EXIT', config: {} }],
  });
  for (let i = 0; i < count; i += 1) {
    await api(stack, project.publicKey, 'POST', '/v1/track', {
      email: `one-${i}@bench.test`,
      event: 'signup',
    });
    await waitForCount(
      db,
      `SELECT count(*)::int AS n FROM executions WHERE workflow_id = $1 AND status = 'EXITED'`,
      [workflowId],
      i + 1,
    );
  }
  const { rows } = await db.query<{ ms: number }>(
    `SELECT extract(epoch FROM s.started_at - e.created_at) * 1000 AS ms
       FROM executions x JOIN events e ON e.id = x.trigger_event_id
       JOIN execution_steps s ON s.execution_id = x.id AND s.seq = 1
      WHERE x.workflow_id = $1`,
    [workflowId],
  );
  return rows.map((r) => Number(r.ms));
}

/** Part 1, floor: as many trivial workflows, started by the client, run by a worker of their own. */
async function trivialThroughput(stack: BenchStack) {
  const taskQueue = 'bench-trivial';
  const native = await NativeConnection.connect({ address: stack.env.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection: native,
    taskQueue,
    workflowsPath: fileURLToPath(new URL('./lib/trivial.workflow.ts', import.meta.url)),
  });
  const connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS });
  const client = new Client({ connection });
  try {
    return await worker.runUntil(async () => {
      const limit = pLimit(CONCURRENCY);
      const started = performance.now();
      const handles = await Promise.all(
        Array.from({ length: EXECUTIONS }, (_, i) =>
          limit(() =>
            client.workflow.start('trivial', {
              taskQueue,
              workflowId: `trivial-${i}-${Date.now()}`,
            }),
          ),
        ),
      );
      await Promise.all(handles.map((h) => limit(() => h.result())));
      const seconds = (performance.now() - started) / 1000;
      return { perSecond: EXECUTIONS / seconds, seconds };
    });
  } finally {
    await connection.close();
    await native.close();
  }
}

/** Part 2: a project with 10 workflows that never match and WAITING executions of others. */
async function busyProject(stack: BenchStack, db: pg.Client) {
  const project = await benchProject(stack.apiUrl);
  await idleWorkflows(stack, project.secretKey, 10);
  const waitingId = await workflow(stack, project.secretKey, {
    event: 'enter',
    steps: [
      { type: 'WAIT_FOR_EVENT', config: { eventName: 'leave' }, branch: 'event' },
      { type: 'EXIT', config: {} },
    ],
  });
  await trackMany(stack, project.publicKey, { count: WAITING, event: 'enter', prefix: 'waiting' });
  await waitForCount(
    db,
    `SELECT count(*)::int AS n FROM executions WHERE workflow_id = $1 AND status = 'WAITING'`,
    [waitingId],
    WAITING,
  );
  return project;
}

const stack = await startBenchStack(log);
const db = new pg.Client({ connectionString: stack.databaseUrl });
let workerPid = 0;
try {
  await db.connect();
  workerPid = (await stack.startWorker()).child.pid as number;

  if (PARTS.includes('1')) await partOne();
  if (PARTS.includes('2')) await partTwo();
} finally {
  await db.end().catch(() => undefined);
  await stack.stop();
}

async function partOne(): Promise<void> {
  log(`\n1. ${EXECUTIONS} tracked events, each starting [UPDATE_CONTACT -> DELAY 1 s -> EXIT]\n`);
  // The floor runs before and after ours (the machine's other load varies); its mean counts.
  const [before, floorCpu] = await cpuOf(() => trivialThroughput(stack));
  const [ours, oursCpu] = await cpuOf(() => executionsThroughput(stack, db));
  const after = await trivialThroughput(stack);
  const floor = { perSecond: (before.perSecond + after.perSecond) / 2 };
  const widths = [34, 10, 12];
  log(formatRow(['', 'seconds', 'per second'], widths));
  for (const [name, figures] of [
    ['floor, before (trivial workflows)', before],
    ['ours (track -> executions EXITED)', ours],
    ['floor, after (trivial workflows)', after],
  ] as const) {
    log(formatRow([name, figures.seconds.toFixed(1), figures.perSecond.toFixed(1)], widths));
  }
  log(
    `\nratio ours/floor (completed per second, floor the mean of both): ${(ours.perSecond / floor.perSecond).toFixed(2)}  (target >= 0.5)`,
  );
  const cpu = (used: Record<string, number>) =>
    Object.entries(used)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ');
  log(`CPU seconds per 1,000: ours ${cpu(oursCpu)}; floor (before) ${cpu(floorCpu)}`);
  log(
    `track -> execution start (run started in Temporal): p50 ${percentile(ours.toStart, 50).toFixed(0)} ms, p99 ${percentile(ours.toStart, 99).toFixed(0)} ms`,
  );
  log(
    `seconds from the first track until the last one: ${Number(ours.phases?.tracked).toFixed(1)}, the last run started: ${Number(ours.phases?.started).toFixed(1)}, the last first step: ${Number(ours.phases?.first_steps).toFixed(1)}, the last execution ended: ${Number(ours.phases?.ended).toFixed(1)}`,
  );
  log(
    `track -> first step begun: p50 ${percentile(ours.toFirstStep, 50).toFixed(0)} ms, p99 ${percentile(ours.toFirstStep, 99).toFixed(0)} ms`,
  );
  const unloaded = await unloadedLatency(stack, db);
  log(
    `unloaded (one event at a time, ${unloaded.length} events): track -> first step begun p50 ${percentile(unloaded, 50).toFixed(0)} ms, p99 ${percentile(unloaded, 99).toFixed(0)} ms`,
  );
}

async function partTwo(): Promise<void> {
  log(
    `\n2. bench:track's load (${SECONDS} s x ${ROUNDS} rounds each): 10 workflows that never match and ${WAITING} WAITING executions, against no workflows\n`,
  );
  const busy = await busyProject(stack, db);
  const quiet = await benchProject(stack.apiUrl);
  await seedExisting(stack.apiUrl, busy.publicKey);
  await seedExisting(stack.apiUrl, quiet.publicKey);
  await load(stack.apiUrl, quiet.publicKey, 'warm', 3);
  const figures: { quiet: LoadFigures[]; busy: LoadFigures[] } = { quiet: [], busy: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    figures.quiet.push(await load(stack.apiUrl, quiet.publicKey, `quiet${round}`, SECONDS));
    figures.busy.push(await load(stack.apiUrl, busy.publicKey, `busy${round}`, SECONDS));
  }
  const mean = (list: LoadFigures[], key: keyof LoadFigures) =>
    list.reduce((sum, f) => sum + f[key], 0) / list.length;
  const loadWidths = [30, 10, 10, 10, 8];
  log(formatRow(['', 'req/s', 'p50 ms', 'p99 ms', 'non2xx'], loadWidths));
  for (const [name, list] of [
    ['no workflows', figures.quiet],
    ['10 idle workflows + waiting', figures.busy],
  ] as const) {
    log(
      formatRow(
        [
          name,
          mean(list, 'rps').toFixed(0),
          mean(list, 'p50').toFixed(1),
          mean(list, 'p99').toFixed(1),
          mean(list, 'non2xx'),
        ],
        loadWidths,
      ),
    );
  }
  log(
    `\nratio with/without workflows (req/s): ${(mean(figures.busy, 'rps') / mean(figures.quiet, 'rps')).toFixed(2)}  (target >= 0.9)`,
  );
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM event_outbox');
  log(`events still in the outbox at the end: ${rows[0]?.n}`);
}
