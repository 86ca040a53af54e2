// npm run bench:send — POST /v1/send accept latency and delivered emails/s for 5,000
// transactional emails through the full stack (API, Temporal workflows, DKIM, pooled SMTP) to a
// local SMTP sink, next to a floor measured in the same run: nodemailer with the same pooled
// transport sending the same rendered, DKIM-signed messages directly. Settings: BENCH_EMAILS
// (5000), BENCH_CONNECTIONS (20).
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { createSql, createSqlPool } from '../db/sql/sql.js';
import {
  composeMessage,
  deliverableEmailsQuery,
  type DeliverableEmail,
} from '../domain/sending/deliver.service.js';
import type { OutgoingMessage } from '../domain/shared/ports.js';
import { startDnsServer } from '../test/helpers/dns-server.js';
import { cpuDelta, cpuSnapshot } from './lib/cpu.js';
import { benchProject, formatRow, json, startBenchStack } from './lib/stack.js';

const EMAILS = Number(process.env.BENCH_EMAILS ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
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
  const domain = `bench-${randomUUID().slice(0, 8)}.example.test`;
  const added = await json(`${stack.apiUrl}/domains`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ domain }),
  });
  for (const record of added.body.records as { name: string; value: string }[])
    dns.publishTxt(record.name, record.value);
  const verified = await json(`${stack.apiUrl}/domains/${added.body.id}/verify`, { headers: auth });
  if (verified.body.status !== 'VERIFIED')
    throw new Error(`domain not verified: ${JSON.stringify(verified.body)}`);
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

  log(`\nPOST /v1/send: ${EMAILS} transactional emails, ${CONNECTIONS} connections\n`);
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
              to: `buyer-${n}@example.com`,
              template: template.body.id,
              data: { firstName: 'Ada', order: `A-${n}`, total: '12.50' },
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
  const statements = await topStatements(stack.databaseUrl);

  // The floor: nodemailer with the same pooled transport sending the same rendered messages
  // directly. They are composed (untimed) by the code our worker runs, from the rows just
  // delivered: same HTML with its tracked links, same text part, headers and DKIM key.
  const pool = createSqlPool({ url: stack.databaseUrl, max: 2 });
  const rows = await createSql(pool).query<DeliverableEmail>(
    deliverableEmailsQuery('SELECT * FROM emails WHERE project_id = $1'),
    [project.id],
  );
  const messages: OutgoingMessage[] = [];
  for (const row of rows) {
    const composed = await composeMessage({
      sql: createSql(pool),
      row,
      encryptionKey: stack.env.ENCRYPTION_KEY as string,
      publicUrl: stack.apiUrl,
    });
    if ('failed' in composed) throw new Error(composed.failed);
    messages.push(composed.message);
  }
  await pool.end();
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: 5,
    url: stack.smtpUrl,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  received = 0;
  const floorCpuBefore = await cpuSnapshot(pids);
  const floorStarted = performance.now();
  const sends = messages.map((message) => transport.sendMail(message));
  await Promise.all(sends);
  await waitForReceived(EMAILS);
  const floorIn = performance.now() - floorStarted;
  const floorCpu = cpuDelta(floorCpuBefore, await cpuSnapshot(pids));
  transport.close();

  const oursRate = EMAILS / (deliveredIn / 1000);
  const floorRate = EMAILS / (floorIn / 1000);
  log(formatRow(['', 'value'], [34, 12]));
  log(formatRow(['accept p50 (ms)', accept.latency.p50], [34, 12]));
  log(formatRow(['accept p99 (ms)', accept.latency.p99], [34, 12]));
  log(formatRow(['accepted req/s', Math.round(EMAILS / (acceptedIn / 1000))], [34, 12]));
  log(formatRow(['non-2xx answers', accept.non2xx + accept.errors], [34, 12]));
  log(formatRow(['ours: delivered emails/s', Math.round(oursRate)], [34, 12]));
  log(formatRow(['floor (nodemailer pool): emails/s', Math.round(floorRate)], [34, 12]));
  log(`\nCPU seconds by process (the bench process also runs the SMTP sink and the load):`);
  log(`  ours:  ${JSON.stringify(oursCpu)}`);
  log(`  floor: ${JSON.stringify(floorCpu)}`);
  if (statements) log(`\nPostgreSQL statements by total time (ours):\n${statements}`);
  log(
    `\nratio ours/floor (delivered emails/s): ${(oursRate / floorRate).toFixed(2)}  (target >= 0.5)`,
  );
  log(`accept p50: ${accept.latency.p50} ms  (target < 30 ms)`);
} finally {
  await stack.stop();
  await dns.stop();
}
