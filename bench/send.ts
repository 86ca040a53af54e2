// npm run bench:send — POST /v1/send accept latency and delivered emails/s for 5,000
// transactional emails through the full stack (API, Temporal workflows, DKIM, pooled SMTP) to a
// local SMTP sink, next to a floor measured in the same run: nodemailer with the same pooled
// transport sending the same rendered, DKIM-signed messages directly. Settings: BENCH_EMAILS
// (5000), BENCH_CONNECTIONS (20).
import { createPrivateKey, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { decryptSecret } from '../domain/shared/encryption.js';
import { startDnsServer } from '../test/helpers/dns-server.js';
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

async function waitForReceived(target: number, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (received < target) {
    if (Date.now() > deadline) throw new Error(`only ${received} of ${target} emails arrived`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

try {
  await stack.startWorker();
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

  // The floor: the same messages rendered and signed by nodemailer itself, through the same pool.
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const key = await db.query('SELECT selector, dkim_private_key FROM domains WHERE id = $1', [
    added.body.id,
  ]);
  await db.end();
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: 5,
    url: stack.smtpUrl,
    dkim: {
      domainName: domain,
      keySelector: key.rows[0].selector,
      // Parsed once, as our worker does: PEM text would be parsed again for every signature.
      privateKey: createPrivateKey(
        decryptSecret(key.rows[0].dkim_private_key, stack.env.ENCRYPTION_KEY as string),
      ),
    },
  } as Parameters<typeof nodemailer.createTransport>[0]);
  received = 0;
  const floorStarted = performance.now();
  const sends: Promise<unknown>[] = [];
  for (let i = 0; i < EMAILS; i += 1) {
    sends.push(
      transport.sendMail({
        from: `shop@${domain}`,
        to: `floor-${i}@example.com`,
        subject: `Your receipt A-${i}`,
        html: `<h1>Thanks Ada</h1><p>Order A-${i}: 12.50</p><p><a href="https://shop.example.com/orders/A-${i}">View</a></p>`,
        text: `THANKS ADA\n\nOrder A-${i}: 12.50\n\nView [https://shop.example.com/orders/A-${i}]`,
      }),
    );
  }
  await Promise.all(sends);
  await waitForReceived(EMAILS);
  const floorIn = performance.now() - floorStarted;
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
  log(
    `\nratio ours/floor (delivered emails/s): ${(oursRate / floorRate).toFixed(2)}  (target >= 0.5)`,
  );
  log(`accept p50: ${accept.latency.p50} ms  (target < 30 ms)`);
} finally {
  await stack.stop();
  await dns.stop();
}
