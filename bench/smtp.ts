// npm run bench:smtp — messages accepted per second over SMTP submission (a few connections,
// STARTTLS and AUTH with the secret key) against POST /v1/send taking the same messages as JSON on
// as many keep-alive connections (node's http client), on the same stack in the same run.
// Accepted means answered (250 / 200): each message is then a QUEUED email row; delivery is not
// part of either side (bench:send measures it). Both compared clients are as lean as their
// protocol allows, so the figures are the servers' and not the clients' (all share two cores):
// node's http client for /v1/send, and for SMTP a client that pipelines (RFC 2920; one round trip
// a message, as a request is; bench/lib/raw-smtp.ts). nodemailer's pooled transport, what
// apps use, is run too and shown, not compared (it waits for the 354, and its process spends more
// than twice the lean client's CPU a message, on the cores the servers need). Every client keeps
// as many messages in flight as it has connections; the SMTP messages (MIME) and the JSON bodies
// are built before the clock starts, and every path is warmed up first.
// Settings: BENCH_MESSAGES (2000 per round), BENCH_CONNECTIONS (4), BENCH_ROUNDS (3; medians).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import pLimit from 'p-limit';
import pg from 'pg';
import { ensureSelfSignedCertificate } from '../runtime/embedded/self-signed-certificate.js';
import { freePort } from '../runtime/embedded/free-port.js';
import { startDnsServer } from '../test/helpers/dns-server.js';
import { cpuDelta, cpuSnapshot } from './lib/cpu.js';
import { dataOf, sendRawOverConnections } from './lib/raw-smtp.js';
import { verifiedBenchDomain } from './lib/sending.js';
import { benchProject, formatRow, startBenchStack } from './lib/stack.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET = 0.8;
const log = (line: string): void => console.log(line);

const certDir = await mkdtemp(path.join(tmpdir(), 'mailwright-bench-tls-'));
const cert = await ensureSelfSignedCertificate({ dir: certDir, hostname: 'localhost' });
const submissionPort = await freePort();
const dns = await startDnsServer();
const stack = await startBenchStack(log, {
  env: {
    DNS_SERVERS: dns.address,
    SPF_INCLUDE: '_spf.bench.test',
    SMTP_SUBMISSION_PORT: String(submissionPort),
    SMTP_TLS_CERT: cert.certPath,
    SMTP_TLS_KEY: cert.keyPath,
  },
});
const db = new pg.Client({ connectionString: stack.databaseUrl });
await db.connect();

/** The same message both ways: a receipt of about 1 KB with a custom header. */
function message(domain: string, to: string, n: number) {
  return {
    from: `shop@${domain}`,
    to,
    subject: `Your receipt A-${n}`,
    html: `<h1>Thanks for your order</h1><p>Order A-${n}: 12.50</p>${'<p>Line item, quantity one, price 12.50.</p>'.repeat(20)}<p><a href="https://shop.example.com/orders/A-${n}">View</a></p>`,
    headers: { 'X-Order-Id': `A-${n}` },
  };
}

async function queuedFor(projectId: string, prefix: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM emails WHERE project_id = $1 AND to_address LIKE $2`,
    [projectId, `${prefix}%`],
  );
  return rows[0]?.n ?? 0;
}

try {
  const project = await benchProject(stack.apiUrl);
  const auth = { authorization: `Bearer ${project.secretKey}` };
  const domain = await verifiedBenchDomain(stack, dns, auth);
  const ca = await readFile(cert.certPath, 'utf8');

  /** The messages for `prefix`, composed as MIME. */
  const composed = (prefix: string, messages: number) =>
    Promise.all(
      Array.from({ length: messages }, (_, i) => {
        const fields = message(domain, `${prefix}${i}@example.com`, i);
        return new MailComposer(fields)
          .compile()
          .build()
          .then((raw) => ({ raw, envelope: { from: fields.from, to: fields.to } }));
      }),
    );

  /** Ours: the messages, already composed, through the lean pipelining client. */
  async function overSmtp(prefix: string, messages = MESSAGES): Promise<number> {
    const built = (await composed(prefix, messages)).map(({ raw, envelope }) => ({
      from: envelope.from,
      to: envelope.to,
      data: dataOf(raw),
    }));
    const started = performance.now();
    await sendRawOverConnections({
      host: '127.0.0.1',
      port: submissionPort,
      starttls: { ca },
      auth: { user: 'bench', pass: project.secretKey },
      messages: built,
      connections: CONNECTIONS,
    });
    return messages / ((performance.now() - started) / 1000);
  }

  /** Shown, not compared: the messages, already composed, through a pooled nodemailer transport. */
  async function overNodemailer(prefix: string, messages = MESSAGES): Promise<number> {
    const raws = (await composed(prefix, messages)).map(({ raw, envelope }) => ({
      raw,
      envelope: { from: envelope.from, to: [envelope.to] },
    }));
    const transport = nodemailer.createTransport({
      pool: true,
      maxConnections: CONNECTIONS,
      maxMessages: Infinity,
      host: '127.0.0.1',
      port: submissionPort,
      secure: false,
      requireTLS: true,
      tls: { ca },
      auth: { user: 'bench', pass: project.secretKey },
    });
    try {
      await transport.verify();
      const started = performance.now();
      // As many in flight as the pool has connections (an app's queue, not 2,000 at once).
      const limit = pLimit(CONNECTIONS);
      await Promise.all(raws.map((m) => limit(() => transport.sendMail(m))));
      return messages / ((performance.now() - started) / 1000);
    } finally {
      transport.close();
    }
  }

  /** The floor: POST /v1/send with the same messages, prepared as JSON bodies beforehand. */
  async function overHttp(prefix: string, messages = MESSAGES): Promise<number> {
    const bodies = Array.from({ length: messages }, (_, i) => {
      const fields = message(domain, `${prefix}${i}@example.com`, i);
      return JSON.stringify({
        to: fields.to,
        from: fields.from,
        subject: fields.subject,
        body: fields.html,
        headers: fields.headers,
      });
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const post = (body: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = http.request(
          `${stack.apiUrl}/v1/send`,
          {
            method: 'POST',
            agent,
            headers: { 'Content-Type': 'application/json', ...auth },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    try {
      const limit = pLimit(CONNECTIONS);
      const started = performance.now();
      const statuses = await Promise.all(bodies.map((body) => limit(() => post(body))));
      const seconds = (performance.now() - started) / 1000;
      const refused = statuses.filter((s) => s !== 200).length;
      if (refused > 0) throw new Error(`/v1/send: ${refused} answers other than 200`);
      return messages / seconds;
    } finally {
      agent.destroy();
    }
  }

  // Both paths warmed up first (compiled hot code, pooled connections), neither timed.
  await overSmtp('warm-smtp-', Math.ceil(MESSAGES / 5));
  await overNodemailer('warm-nodemailer-', Math.ceil(MESSAGES / 5));
  await overHttp('warm-http-', Math.ceil(MESSAGES / 5));

  // CPU seconds each side cost the API, the bench process (the clients) and PostgreSQL.
  const pids = { api: stack.apiPid, bench: process.pid };
  const snapshot = () =>
    cpuSnapshot(pids, { postgresPid: stack.postgresPid, temporalPid: stack.temporalPid });
  const cpu: Record<string, Record<string, number>[]> = { ours: [], floor: [], nodemailer: [] };
  const rounds: { ours: number; floor: number; nodemailer: number }[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    // Alternating which side goes first, so neither always meets a warmer (or fuller) database.
    const sides = [
      ['ours', () => overSmtp(`smtp-${round}-`)],
      ['floor', () => overHttp(`http-${round}-`)],
      ['nodemailer', () => overNodemailer(`nodemailer-${round}-`)],
    ] as const;
    const rates: Record<string, number> = {};
    for (const [name, run] of round % 2 === 1 ? sides : [...sides].reverse()) {
      const before = await snapshot();
      rates[name] = await run();
      cpu[name]?.push(cpuDelta(before, await snapshot()));
    }
    for (const prefix of [`smtp-${round}-`, `http-${round}-`, `nodemailer-${round}-`]) {
      const queued = await queuedFor(project.id, prefix);
      if (queued !== MESSAGES) throw new Error(`${prefix}: ${queued} of ${MESSAGES} emails queued`);
    }
    rounds.push({
      ours: rates.ours as number,
      floor: rates.floor as number,
      nodemailer: rates.nodemailer as number,
    });
    log(
      `round ${round}: SMTP ${rates.ours?.toFixed(0)}/s, /v1/send ${rates.floor?.toFixed(0)}/s, SMTP from nodemailer ${rates.nodemailer?.toFixed(0)}/s`,
    );
  }

  const median = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const ours = median(rounds.map((r) => r.ours));
  const floor = median(rounds.map((r) => r.floor));
  const ratio = median(rounds.map((r) => r.ours / r.floor));
  const nodemailerRate = median(rounds.map((r) => r.nodemailer));
  const widths = [56, 10];
  log('\nCPU seconds by process, per round (the bench process runs the clients):');
  for (const side of ['ours', 'floor', 'nodemailer'])
    cpu[side]?.forEach((c, i) => log(`  round ${i + 1} ${side}: ${JSON.stringify(c)}`));
  log('');
  log(
    `bench:smtp — ${MESSAGES} messages per round, ${CONNECTIONS} connections, ${ROUNDS} rounds (medians)`,
  );
  log(formatRow(['messages/s accepted, SMTP submission (STARTTLS)', ours.toFixed(0)], widths));
  log(formatRow(['messages/s accepted, POST /v1/send (same messages)', floor.toFixed(0)], widths));
  log(
    formatRow(
      ['messages/s accepted, SMTP from nodemailer (not compared)', nodemailerRate.toFixed(0)],
      widths,
    ),
  );
  log(formatRow(['ratio SMTP / POST /v1/send', ratio.toFixed(2)], widths));
  log(`${ratio >= TARGET ? 'PASS' : 'MISS'}: ratio ${ratio.toFixed(2)} (target >= ${TARGET})`);
} finally {
  await db.end().catch(() => undefined);
  await stack.stop();
  await dns.stop();
  await rm(certDir, { recursive: true, force: true });
}
