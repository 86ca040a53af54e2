// npm run bench:bounces — delivery reports accepted per second by our inbound SMTP receiver,
// next to ordinary inbound mail in the same run (the floor: the same receiver keeping a message
// of the same size as an `email.received`). Each report is an RFC 3464 DSN to the return path of
// an email the stack sent, read and applied as a hard bounce (BOUNCED, suppressed, unsubscribed,
// `email.bounced`, the raw message kept); each ordinary message comes from a new sender (a
// contact created, the raw message kept, `email.received`). Both over SMTP through a pooled
// client, in short rounds alternating which goes first (the machine's load drifts between and
// within rounds); medians decide. Target: ratio >= 0.8.
// Settings: BENCH_MESSAGES (500 of each kind per round), BENCH_CONNECTIONS (10),
// BENCH_ROUNDS (6).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { returnPathAddress } from '../domain/sending/return-path.js';
import { freePort } from '../runtime/embedded/free-port.js';
import { startDnsServer, type DnsServer } from '../test/helpers/dns-server.js';
import { dsnMessage } from '../test/helpers/report-messages.js';
import { deliverInbound, type InboundMessage } from './lib/inbound-load.js';
import {
  benchProject,
  cpuSeconds,
  formatRow,
  json,
  startBenchStack,
  type BenchStack,
} from './lib/stack.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 500);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const WARMUP = 100;
const RECIPIENTS_PER_SEND = 50;
const log = (line: string): void => console.log(line);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/** A domain of the project with every advised record published (the return-path MX too). */
async function returnPathDomain(
  stack: BenchStack,
  dns: DnsServer,
  auth: Record<string, string>,
): Promise<string> {
  const domain = `bounces-${randomUUID().slice(0, 8)}.example.test`;
  const added = await json(`${stack.apiUrl}/domains`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ domain }),
  });
  for (const record of added.body.records as { type: string; name: string; value: string }[]) {
    if (record.type === 'MX') {
      const [priority, exchange] = record.value.split(' ');
      dns.publishMx(record.name, exchange as string, Number(priority));
    } else {
      dns.publishTxt(record.name, record.value);
    }
  }
  const verified = await json(`${stack.apiUrl}/domains/${added.body.id}/verify`, { headers: auth });
  const returnPath = (verified.body.records as { purpose: string; verified: boolean }[]).filter(
    (r) => r.purpose === 'return_path',
  );
  if (verified.body.status !== 'VERIFIED' || !returnPath.every((r) => r.verified))
    throw new Error(`domain not verified: ${JSON.stringify(verified.body)}`);
  return domain;
}

/** `count` emails sent from `domain` through the stack, each SMTP-accepted: id and recipient. */
async function sentEmails(
  stack: BenchStack,
  db: pg.Client,
  {
    projectId,
    auth,
    domain,
    count,
  }: {
    projectId: string;
    auth: Record<string, string>;
    domain: string;
    count: number;
  },
): Promise<{ id: string; to: string }[]> {
  const tag = randomUUID().slice(0, 8);
  for (let first = 0; first < count; first += RECIPIENTS_PER_SEND) {
    const to = Array.from(
      { length: Math.min(RECIPIENTS_PER_SEND, count - first) },
      (_, i) => `reader-${first + i}-${tag}@remote.test`,
    );
    const res = await json(`${stack.apiUrl}/v1/send`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ to, from: `news@${domain}`, subject: 'News', body: '<p>News</p>' }),
    });
    if (res.status !== 200) throw new Error(`send: ${res.status} ${JSON.stringify(res.body)}`);
  }
  for (;;) {
    const { rows } = await db.query<{ sent: number }>(
      `SELECT count(*) FILTER (WHERE status = 'SENT')::int AS sent FROM emails WHERE project_id = $1`,
      [projectId],
    );
    if ((rows[0]?.sent ?? 0) >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const { rows } = await db.query<{ id: string; to_address: string }>(
    'SELECT id, to_address FROM emails WHERE project_id = $1 ORDER BY id',
    [projectId],
  );
  return rows.map((r) => ({ id: r.id, to: r.to_address }));
}

/** A DSN reporting `email`'s recipient unknown, to the email's return path. */
const reportOf = (email: { id: string; to: string }, domain: string, secret: string) => {
  const returnPath = returnPathAddress({ emailId: email.id, host: `rp.${domain}`, secret });
  return {
    from: 'MAILER-DAEMON@mx.remote.test',
    to: returnPath,
    raw: dsnMessage({ to: returnPath, recipient: email.to }),
  } satisfies InboundMessage;
};

/** An ordinary message from a new sender to the domain, padded to `size` bytes. */
function ordinaryOf(n: number, domain: string, size: number): InboundMessage {
  const head = [
    `From: Sender ${n} <sender-${n}@elsewhere.test>`,
    `To: hello@${domain}`,
    `Subject: A question about order ${n}`,
    `Message-ID: <${n}.${randomUUID()}@elsewhere.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Hello, I have a question about my order.',
  ].join('\r\n');
  const padding = Math.max(0, size - head.length - 4);
  const body = 'Some more words. '.repeat(Math.ceil(padding / 17)).slice(0, padding);
  return {
    from: `sender-${n}@elsewhere.test`,
    to: `hello@${domain}`,
    raw: `${head}\r\n${body.replace(/(.{76})/g, '$1\r\n')}\r\n`,
  };
}

/** With BENCH_PG_STATEMENTS=1: the statements that took PostgreSQL's time, heaviest first. */
async function topStatements(db: pg.Client): Promise<string | undefined> {
  if (process.env.BENCH_PG_STATEMENTS !== '1') return undefined;
  const { rows } = await db.query<{ ms: number; calls: number; query: string }>(
    `SELECT calls, round(total_exec_time)::int AS ms,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
       FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 15`,
  );
  return rows
    .map((r) => `${String(r.ms).padStart(7)} ms ${String(r.calls).padStart(7)} calls  ${r.query}`)
    .join('\n');
}

interface Measured {
  ms: number;
  cpuMs: number;
}

const inboundPort = await freePort();
const dns = await startDnsServer();
const stack = await startBenchStack(log, {
  env: {
    DNS_SERVERS: dns.address,
    SPF_INCLUDE: '_spf.bench.test',
    INBOUND_SMTP_PORT: String(inboundPort),
    INBOUND_MX_HOST: 'mx.bench.test',
  },
});
const db = new pg.Client({ connectionString: stack.databaseUrl });
await db.connect();
try {
  await stack.startWorker();
  const project = await benchProject(stack.apiUrl);
  const auth = { Authorization: `Bearer ${project.secretKey}` };
  const domain = await returnPathDomain(stack, dns, auth);
  const secret = stack.env.ENCRYPTION_KEY as string;
  const total = WARMUP + MESSAGES * ROUNDS;
  log(`Sending ${total.toLocaleString('en')} emails to report on...`);
  const emails = await sentEmails(stack, db, { projectId: project.id, auth, domain, count: total });
  const reports = emails.map((email) => reportOf(email, domain, secret));
  const size = Math.round(reports.reduce((n, r) => n + r.raw.length, 0) / reports.length);
  const ordinary = Array.from({ length: total }, (_, n) => ordinaryOf(n, domain, size));

  const measure = async (messages: InboundMessage[]): Promise<Measured> => {
    const cpuBefore = await cpuSeconds(stack.apiPid);
    const ms = await deliverInbound({ port: inboundPort, messages, connections: CONNECTIONS });
    return { ms, cpuMs: ((await cpuSeconds(stack.apiPid)) - cpuBefore) * 1000 };
  };
  await measure(reports.slice(0, WARMUP));
  await measure(ordinary.slice(0, WARMUP));
  if (process.env.BENCH_PG_STATEMENTS === '1') {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await db.query('SELECT pg_stat_statements_reset()');
  }

  log(
    `\n${MESSAGES.toLocaleString('en')} messages of each kind per round (about ${size} bytes each), ${CONNECTIONS} SMTP connections, ${ROUNDS} rounds\n`,
  );
  const widths = [7, 26, 10, 12, 16];
  log(formatRow(['round', '', 'seconds', 'messages/s', 'API CPU ms/msg'], widths));
  const rounds: { reports: Measured; ordinary: Measured }[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const slice = (all: InboundMessage[]) =>
      all.slice(WARMUP + round * MESSAGES, WARMUP + (round + 1) * MESSAGES);
    const results: Partial<{ reports: Measured; ordinary: Measured }> = {};
    // Alternate which goes first, so a drift of the machine favours neither.
    for (const kind of round % 2
      ? (['reports', 'ordinary'] as const)
      : (['ordinary', 'reports'] as const)) {
      results[kind] = await measure(slice(kind === 'reports' ? reports : ordinary));
    }
    const done = results as { reports: Measured; ordinary: Measured };
    rounds.push(done);
    for (const [label, m] of [
      ['reports (DSN, hard bounce)', done.reports],
      ['ordinary inbound (floor)', done.ordinary],
    ] as const) {
      log(
        formatRow(
          [
            round + 1,
            label,
            (m.ms / 1000).toFixed(2),
            Math.round(MESSAGES / (m.ms / 1000)),
            (m.cpuMs / MESSAGES).toFixed(2),
          ],
          widths,
        ),
      );
    }
  }

  const statements = await topStatements(db);
  if (statements) log(`\nPostgreSQL time by statement (both kinds):\n${statements}`);

  // Every report applied once, every ordinary message kept: a fast run that did less is no run.
  const { rows: counts } = await db.query<{ applied: number; bounced: number; received: number }>(
    `SELECT (SELECT count(*) FROM delivery_reports WHERE project_id = $1 AND outcome = 'applied')::int AS applied,
            (SELECT count(*) FROM emails WHERE project_id = $1 AND status = 'BOUNCED')::int AS bounced,
            (SELECT count(*) FROM events WHERE project_id = $1 AND name = 'email.received')::int AS received`,
    [project.id],
  );
  const kept = counts[0] as { applied: number; bounced: number; received: number };
  log(
    `\nreports applied: ${kept.applied}, emails BOUNCED: ${kept.bounced}, email.received kept: ${kept.received} (of ${total} each)`,
  );
  if (kept.applied !== total || kept.bounced !== total || kept.received !== total)
    throw new Error('Some messages were not applied or kept');

  const rate = (m: Measured): number => MESSAGES / (m.ms / 1000);
  const oursRate = median(rounds.map((r) => rate(r.reports)));
  const floorRate = median(rounds.map((r) => rate(r.ordinary)));
  const ratio = median(rounds.map((r) => rate(r.reports) / rate(r.ordinary)));
  log(`reports accepted per second (median): ${Math.round(oursRate)}`);
  log(`ordinary inbound per second (median, floor): ${Math.round(floorRate)}`);
  log(
    `median ratio reports/ordinary inbound (messages/s): ${ratio.toFixed(2)}  (target >= 0.8)  ${ratio >= 0.8 ? 'PASS' : 'MISS'}`,
  );
} finally {
  await db.end();
  await stack.stop();
  await dns.stop();
}
