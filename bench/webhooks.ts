// npm run bench:webhooks — event webhooks delivered per second to a loopback receiver (its own
// process). Ours: deliveries queued in the deliveries outbox (one INSERT, as the dispatcher
// writes them), claimed, signed and POSTed by the webhook lanes, each outcome recorded. The
// floor, in the same run: a plain HTTP client (keep-alive, the concurrency of our lanes together)
// POSTing the same bodies to the same receiver with the same headers, signed before its clock
// starts (as bench:campaign's floor sends pre-signed messages: the receiver reads and counts the
// same webhook-ids on both sides; ours signs each one with HMAC-SHA256 as it goes); two clients
// are run, node's http and undici (the one ours uses), and the faster is the floor. Ours is
// timed from the moment the outbox rows are committed (the floor's clock starts with its
// requests in hand; the INSERT is the dispatcher's work, timed on its own and in the whole path
// below) to the moment the receiver has every webhook-id; each phase waits until the one before
// is recorded. Also shown, not compared: the whole path from events recorded in PostgreSQL
// (matched to the endpoint by the dispatcher lanes) to the receiver, and the CPU each process
// spent per delivery on each side (the sender: the worker for ours, from the committed rows to
// every outcome recorded, the bench's own process for the floor; the receiver; PostgreSQL).
// Prints ours, the floor and ours/floor (target >= 0.8: PASS or MISS).
// Settings: BENCH_DELIVERIES (10000 per round), BENCH_ROUNDS (3, after one untimed warm-up round;
// medians decide); BENCH_PG_STATEMENTS=1 prints PostgreSQL's time by statement;
// BENCH_WORKER_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the worker.
import http from 'node:http';
import pLimit from 'p-limit';
import pg from 'pg';
import { Pool } from 'undici';
import { AUTOMATION_PENDING_CHANNEL, WEBHOOKS_PENDING_CHANNEL } from '../db/sql/wakeups.sql.js';
import { deliveryHeaders, signingKey } from '../domain/webhooks/webhook-signing.js';
import { runEntryPoint } from '../test/helpers/processes.js';
import { cpuDelta, cpuSnapshot } from './lib/cpu.js';
import { resetStatements, topStatements } from './lib/pg-statements.js';
import { benchProject, formatRow, json, startBenchStack } from './lib/stack.js';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LANES = 2;
// What each webhook lane has in flight (domain/webhooks/webhook-lane.service.ts).
const PER_LANE = 32;
const TARGET = 0.8;
const log = (line: string): void => console.log(line);

const sink = runEntryPoint('bench/lib/webhook-sink.ts', {});
const port = Number((await sink.waitForOutput(/listening (\d+)/, 60_000))[1]);
const sinkUrl = `http://127.0.0.1:${port}`;
const counts = async (): Promise<{ posts: number; distinct: number }> =>
  (await json(`${sinkUrl}/count`)).body;
const reset = () => json(`${sinkUrl}/reset`, { method: 'POST' });

/** CPU seconds by process over a phase, as microseconds per delivery. */
const perDelivery = (seconds: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(seconds).map(([k, v]) => [k, (v * 1e6) / DELIVERIES]));
/** The sender (`client`: the worker for ours, the bench for the floor), the sink, PostgreSQL. */
const cpuLine = (us: Record<string, number>, client: string): string => {
  const parts = [client, 'sink', 'postgres'].map((k) => us[k] ?? 0);
  const total = parts.reduce((a, b) => a + b, 0);
  return `${client} ${parts[0]?.toFixed(0)} + sink ${parts[1]?.toFixed(0)} + postgres ${parts[2]?.toFixed(0)} = ${total.toFixed(0)}`;
};

async function waitForPosts(target: number, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await counts()).distinct < target) {
    if (Date.now() > deadline) throw new Error(`only ${(await counts()).distinct} of ${target}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const stack = await startBenchStack(log, {
  env: {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    AUTOMATION_DISPATCH_LANES: String(LANES),
  },
});
const db = new pg.Client({ connectionString: stack.databaseUrl });
const verdict: string[] = [];

/** Until every delivery queued so far is recorded (so no phase overlaps the one before). */
async function waitForRecorded(timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'PENDING'`,
    );
    if (rows[0]?.n === 0) return;
    if (Date.now() > deadline) throw new Error(`${rows[0]?.n} deliveries still PENDING`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

try {
  await db.connect();
  const worker = await stack.startWorker();
  const pids = { worker: worker.child.pid as number, sink: sink.child.pid as number };
  const snapshot = () =>
    cpuSnapshot(pids, { postgresPid: stack.postgresPid, temporalPid: stack.temporalPid });
  const project = await benchProject(stack.apiUrl);
  const auth = { authorization: `Bearer ${project.secretKey}` };
  const endpoint = await json(`${stack.apiUrl}/webhook-endpoints`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ url: `${sinkUrl}/hooks`, eventTypes: ['order.paid'] }),
  });
  if (endpoint.status !== 201) throw new Error(`endpoint: ${JSON.stringify(endpoint.body)}`);
  const [contact] = (
    await db.query<{ id: string }>(
      `INSERT INTO contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
       VALUES (uuid_generate_v7(), $1, 'buyer@bench.test', true, '{}', now(), now(), now()) RETURNING id`,
      [project.id],
    )
  ).rows;

  const floorKey = signingKey(endpoint.body.secret as string);
  /** A floor request: a body and the headers ours would send with it, signed in advance. */
  interface Signed {
    body: string;
    headers: Record<string, string>;
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: LANES * PER_LANE });
  const post = ({ body, headers }: Signed): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = http.request(`${sinkUrl}/hooks`, { method: 'POST', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end(body);
    });

  const undici = new Pool(sinkUrl, { connections: LANES * PER_LANE });
  const undiciPost = async ({ body, headers }: Signed): Promise<void> => {
    const res = await undici.request({ path: '/hooks', method: 'POST', headers, body });
    await res.body.dump();
  };
  const floors = { 'node:http': post, undici: undiciPost } as const;

  const queue = stack.env.TEMPORAL_TASK_QUEUE ?? 'mailwright';
  // The webhook lanes hear queued deliveries on their own channel; the dispatcher, events.
  const wake = () => db.query('SELECT pg_notify($1, $2)', [WEBHOOKS_PENDING_CHANNEL, queue]);
  const wakeDispatcher = () =>
    db.query('SELECT pg_notify($1, $2)', [AUTOMATION_PENDING_CHANNEL, queue]);
  const rows: {
    ours: number;
    withInsert: number;
    floor: number;
    /** Each plain client's rate; `floor` is the faster. */
    floors: Record<keyof typeof floors, number>;
    whole: number;
    insertMs: number;
    /** CPU us per delivery by process (worker, sink, postgres, temporal, bench). */
    oursCpu: Record<string, number>;
    floorCpu: Record<keyof typeof floors, Record<string, number>>;
  }[] = [];
  await resetStatements(stack.databaseUrl);
  // Round 0 warms every path up (compiled hot code, pooled connections) and is not counted.
  for (let round = 0; round <= ROUNDS; round += 1) {
    // Ours: the deliveries queued in one statement, the lanes woken, the clock running until the
    // receiver has every webhook-id.
    await reset();
    const started = performance.now();
    await db.query(
      `INSERT INTO webhook_deliveries (id, project_id, endpoint_id, type, payload, queue)
       SELECT uuid_generate_v7(), $1, $2, 'order.paid',
              jsonb_build_object('type', 'order.paid', 'timestamp', now(), 'data',
                jsonb_build_object('id', gen_random_uuid(), 'name', 'order.paid',
                  'contact', jsonb_build_object('id', $3::uuid, 'email', 'buyer@bench.test'),
                  'data', jsonb_build_object('order', n, 'total', n * 3))),
              $4
         FROM generate_series(1, $5::int) AS n`,
      [project.id, endpoint.body.id, contact!.id, queue, DELIVERIES],
    );
    const queued = performance.now();
    // CPU from the committed rows to every outcome recorded (claim, sign, POST, record).
    const oursCpuBefore = await snapshot();
    await wake();
    await waitForPosts(DELIVERIES);
    const oursSeconds = (performance.now() - queued) / 1000;
    const withInsertSeconds = (performance.now() - started) / 1000;
    await waitForRecorded();
    const oursCpu = cpuDelta(oursCpuBefore, await snapshot());

    // The floor: the same bodies and headers, POSTed by a plain client at the lanes' concurrency.
    const at = new Date();
    const bodies: Signed[] = (
      await db.query<{ id: string; body: string }>(
        `SELECT id, payload::text AS body FROM webhook_deliveries
          WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2`,
        [endpoint.body.id, DELIVERIES],
      )
    ).rows.map(({ id, body }) => ({
      body,
      headers: deliveryHeaders({ id, body, keys: [floorKey], at }),
    }));
    const floorRates = {} as Record<keyof typeof floors, number>;
    const floorCpu = {} as Record<keyof typeof floors, Record<string, number>>;
    for (const [client, send] of Object.entries(floors) as [keyof typeof floors, typeof post][]) {
      await reset();
      const limit = pLimit(LANES * PER_LANE);
      const floorCpuBefore = await snapshot();
      const floorStarted = performance.now();
      await Promise.all(bodies.map((body) => limit(() => send(body))));
      floorRates[client] = DELIVERIES / ((performance.now() - floorStarted) / 1000);
      floorCpu[client] = perDelivery(cpuDelta(floorCpuBefore, await snapshot()));
      const posted = await counts();
      if (posted.posts !== DELIVERIES || posted.distinct !== DELIVERIES)
        throw new Error(`${client} posted ${JSON.stringify(posted)} of ${DELIVERIES}`);
    }

    // The whole path, for the record: events recorded (the outbox trigger queues them), matched
    // by the dispatcher lanes, delivered.
    await reset();
    const wholeStarted = performance.now();
    await db.query(
      `INSERT INTO events (id, project_id, contact_id, name, data, created_at)
       SELECT uuid_generate_v7(), $1, $2, 'order.paid', jsonb_build_object('order', n, 'total', n * 3), now()
         FROM generate_series(1, $3::int) AS n`,
      [project.id, contact!.id, DELIVERIES],
    );
    await wakeDispatcher();
    await waitForPosts(DELIVERIES);
    const wholeSeconds = (performance.now() - wholeStarted) / 1000;
    await waitForRecorded();

    const row = {
      ours: DELIVERIES / oursSeconds,
      withInsert: DELIVERIES / withInsertSeconds,
      floor: Math.max(...Object.values(floorRates)),
      floors: floorRates,
      whole: DELIVERIES / wholeSeconds,
      insertMs: (withInsertSeconds - oursSeconds) * 1000,
      oursCpu: perDelivery(oursCpu),
      floorCpu,
    };
    if (round > 0) rows.push(row);
    log(
      `round ${round === 0 ? '0 (warm-up, not counted)' : round}: ours ${row.ours.toFixed(0)}/s (${row.withInsert.toFixed(0)}/s with the ${row.insertMs.toFixed(0)} ms INSERT), floor ${row.floor.toFixed(0)}/s (node:http ${row.floors['node:http'].toFixed(0)}, undici ${row.floors.undici.toFixed(0)}), ratio ${(row.ours / row.floor).toFixed(2)}, from events ${row.whole.toFixed(0)}/s; CPU us per delivery: ours ${cpuLine(row.oursCpu, 'worker')}; node:http ${cpuLine(row.floorCpu['node:http'], 'bench')}; undici ${cpuLine(row.floorCpu.undici, 'bench')}`,
    );
  }
  agent.destroy();
  await undici.close();

  const failed = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'SUCCEEDED'`,
  );
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  const ours = median(rows.map((r) => r.ours));
  const floor = median(rows.map((r) => r.floor));
  const whole = median(rows.map((r) => r.whole));
  const withInsert = median(rows.map((r) => r.withInsert));
  const ratio = ours / floor;
  const widths = [52, 10];
  log('');
  log(`bench:webhooks — ${DELIVERIES} deliveries per round, ${ROUNDS} rounds (medians)`);
  log(formatRow(['deliveries/s, ours (outbox -> signed POST)', ours.toFixed(0)], widths));
  log(formatRow(['deliveries/s, plain HTTP client (floor: the faster)', floor.toFixed(0)], widths));
  for (const client of Object.keys(floors) as (keyof typeof floors)[]) {
    const rate = median(rows.map((r) => r.floors[client]));
    log(formatRow([`  of which ${client}`, rate.toFixed(0)], widths));
  }
  log(
    formatRow(
      ['deliveries/s, ours with the outbox INSERT (not compared)', withInsert.toFixed(0)],
      widths,
    ),
  );
  log(formatRow(['deliveries/s from events (not compared)', whole.toFixed(0)], widths));
  // Each process's median over the rounds.
  const cpuMedian = (
    of: (row: (typeof rows)[number]) => Record<string, number>,
  ): Record<string, number> =>
    Object.fromEntries(
      ['worker', 'bench', 'sink', 'postgres'].map((k) => [
        k,
        median(rows.map((r) => of(r)[k] ?? 0)),
      ]),
    );
  log(
    formatRow(
      [
        'CPU us per delivery, ours',
        cpuLine(
          cpuMedian((r) => r.oursCpu),
          'worker',
        ),
      ],
      widths,
    ),
  );
  for (const client of Object.keys(floors) as (keyof typeof floors)[]) {
    const cpu = cpuMedian((r) => r.floorCpu[client]);
    log(formatRow([`CPU us per delivery, ${client}`, cpuLine(cpu, 'bench')], widths));
  }
  log(formatRow(['deliveries not SUCCEEDED', failed.rows[0]?.n ?? 0], widths));
  const top = await topStatements(stack.databaseUrl, 10);
  if (top) log(top);
  // What went wrong in the worker meanwhile, if anything (warnings and errors, the first few).
  const troubles = worker
    .output()
    .split('\n')
    .filter((line) => /"level":(40|50|60)/.test(line))
    .slice(0, 5);
  for (const line of troubles) log(`worker: ${line.slice(0, 600)}`);
  verdict.push(
    formatRow(['ratio ours/floor', ratio.toFixed(2)], widths),
    `${ratio >= TARGET ? 'PASS' : 'MISS'}: ratio ${ratio.toFixed(2)} (target >= ${TARGET})`,
  );
} finally {
  await db.end().catch(() => undefined);
  await stack.stop();
  await sink.stop();
}
// Last, after what stopping the stack prints.
for (const line of verdict) log(line);
