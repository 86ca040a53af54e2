// npm run bench:send — POST /v1/send accept latency and delivered emails/s for 5,000
// transactional emails through the full stack (API, Temporal workflows, DKIM, pooled SMTP) to a
// local SMTP sink, next to a floor measured in the same run: nodemailer with the same pooled
// transport sending the same rendered, DKIM-signed messages directly. Settings: BENCH_EMAILS
// (5000 per round), BENCH_CONNECTIONS (20), BENCH_ROUNDS (3).
import autocannon from 'autocannon';
import pg from 'pg';
import { startDnsServer } from '../test/helpers/dns-server.js';
import { cpuDelta, cpuSnapshot } from './lib/cpu.js';
import { composeFloorMessages, sendThroughPool, verifiedBenchDomain } from './lib/sending.js';
import { benchProject, formatRow, json, startBenchStack } from './lib/stack.js';

const EMAILS = Number(process.env.BENCH_EMAILS ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
// The machines are noisy: each round measures ours and the floor back to back; medians decide.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const log = (line: string): void => console.log(line);

let received = 0;
const dns = await startDnsServer();
const stack = await startBenchStack(log, {
  onMessage: () => {
    received += 1;
  },
  env: { DNS_SERVERS: dns.address, SPF_INCLUDE: '_spf.bench.test' },
});

/** With BENCH_PG_STATEMENTS=1: the statements that took PostgreSQL's time, heaviest first. */
async function topStatements(databaseUrl: string): Promise<string | undefined> {
  if (process.env.BENCH_PG_STATEMENTS !== '1') return undefined;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const { rows } = await db.query(
      `SELECT calls, round(total_exec_time)::int AS ms, round(mean_exec_time::numeric, 3) AS mean_ms,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
         FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 12`,
    );
    return rows
      .map((r) => `${String(r.ms).padStart(7)} ms ${String(r.calls).padStart(7)} calls  ${r.query}`)
      .join('\n');
  } finally {
    await db.end();
  }
}

async function waitForReceived(target: number, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (received < target) {
    if (Date.now() > deadline) throw new Error(`only ${received} of ${target} emails arrived`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

try {
  const worker = await stack.startWorker();
  const pids = { api: stack.apiPid, worker: worker.child.pid as number };
  const project = await benchProject(stack.apiUrl);
  const auth = { authorization: `Bearer ${project.secretKey}` };
  const domain = await verifiedBenchDomain(stack, dns, auth);
  const template = await json(`${stack.apiUrl}/templates`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      name: 'Receipt',
      type: 'TRANSACTIONAL',
      subject: 'Your receipt {{ order }}',
      body: '<h1>Thanks {{ firstName }}</h1><p>Order {{ order }}: {{ total }}</p><p><a href="https://shop.example.com/orders/{{ order }}">View</a></p>',
      from: `shop@${domain}`,
    }),
  });

  interface Round {
    acceptP50: number;
    acceptP99: number;
    acceptedPerSecond: number;
    failures: number;
    oursRate: number;
    floorRate: number;
    oursCpu: Record<string, number>;
    floorCpu: Record<string, number>;
  }

  // One round: EMAILS sends through the API to new recipients, timed from the first request to
  // the last message at the sink; then the floor sends the same messages, composed by our code.
  async function round(r: number): Promise<Round> {
    received = 0;
    let n = 0;
    const cpuBefore = await cpuSnapshot(pids);
    const started = performance.now();
    const accept = await autocannon({
      url: `${stack.apiUrl}/v1/send`,
      connections: CONNECTIONS,
      amount: EMAILS,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      requests: [
        {
          setupRequest: (request) => {
            n += 1;
            return {
              ...request,
              body: JSON.stringify({
                to: `buyer-${r}-${n}@example.com`,
                template: template.body.id,
                data: { firstName: 'Ada', order: `A-${r}-${n}`, total: '12.50' },
              }),
            };
          },
        },
      ],
    });
    const acceptedIn = performance.now() - started;
    await waitForReceived(EMAILS);
    const deliveredIn = performance.now() - started;
    const oursCpu = cpuDelta(cpuBefore, await cpuSnapshot(pids));

    const messages = await composeFloorMessages(stack, {
      projectId: project.id,
      toPrefix: `buyer-${r}-`,
    });
    received = 0;
    const floorCpuBefore = await cpuSnapshot(pids);
    const floorStarted = performance.now();
    await sendThroughPool(stack.smtpUrl, messages, 5);
    await waitForReceived(EMAILS);
    const floorIn = performance.now() - floorStarted;
    const floorCpu = cpuDelta(floorCpuBefore, await cpuSnapshot(pids));
    return {
      acceptP50: accept.latency.p50,
      acceptP99: accept.latency.p99,
      acceptedPerSecond: Math.round(EMAILS / (acceptedIn / 1000)),
      failures: accept.non2xx + accept.errors,
      oursRate: Math.round(EMAILS / (deliveredIn / 1000)),
      floorRate: Math.round(EMAILS / (floorIn / 1000)),
      oursCpu,
      floorCpu,
    };
  }

  log(
    `\nPOST /v1/send: ${EMAILS} transactional emails per round, ${CONNECTIONS} connections, ${ROUNDS} rounds\n`,
  );
  const rounds: Round[] = [];
  const widths = [34, 10, 10, 10];
  for (let r = 1; r <= ROUNDS; r += 1) rounds.push(await round(r));
  const statements = await topStatements(stack.databaseUrl);
  log(formatRow(['', ...rounds.map((_, i) => `round ${i + 1}`)], widths));
  const row = (label: string, pick: (x: Round) => number | string): void =>
    log(formatRow([label, ...rounds.map(pick)], widths));
  row('accept p50 (ms)', (x) => x.acceptP50);
  row('accept p99 (ms)', (x) => x.acceptP99);
  row('accepted req/s', (x) => x.acceptedPerSecond);
  row('non-2xx answers', (x) => x.failures);
  row('ours: delivered emails/s', (x) => x.oursRate);
  row('floor (nodemailer pool): emails/s', (x) => x.floorRate);
  row('ratio ours/floor', (x) => (x.oursRate / x.floorRate).toFixed(2));
  log(`\nCPU seconds by process (the bench process also runs the SMTP sink and the load):`);
  rounds.forEach((x, i) => {
    log(`  round ${i + 1} ours:  ${JSON.stringify(x.oursCpu)}`);
    log(`  round ${i + 1} floor: ${JSON.stringify(x.floorCpu)}`);
  });
  if (statements) log(`\nPostgreSQL statements by total time (all rounds):\n${statements}`);
  const median = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const ratio = median(rounds.map((x) => x.oursRate / x.floorRate));
  log(`\nmedian ratio ours/floor (delivered emails/s): ${ratio.toFixed(2)}  (target >= 0.5)`);
  log(`median accept p50: ${median(rounds.map((x) => x.acceptP50))} ms  (target < 30 ms)`);
} finally {
  await stack.stop();
  await dns.stop();
}
