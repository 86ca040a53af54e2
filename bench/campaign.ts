// npm run bench:campaign — a campaign to 100,000 contacts through the full stack (API, the
// campaign-send workflow, the delivery lanes, DKIM, pooled SMTP) to a local SMTP sink: time to
// the audience's snapshot, time to the first email, delivered emails/s and CPU seconds per 1,000
// emails in each process, next to a floor measured in the same run: nodemailer with the same
// pooled transport (SMTP_POOL_SIZE connections) sending the same composed, DKIM-signed messages
// directly. Settings: BENCH_CONTACTS (100000), BENCH_FLOOR_PREFIX (r1: the recipients r1, r10..,
// r1xxxx, 11,111 of 100,000, whose messages the floor sends).
import pg from 'pg';
import { startDnsServer } from '../test/helpers/dns-server.js';
import { cpuDelta, cpuSnapshot } from './lib/cpu.js';
import { composeFloorMessages, sendThroughPool, verifiedBenchDomain } from './lib/sending.js';
import { benchProject, formatRow, json, startBenchStack } from './lib/stack.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const FLOOR_PREFIX = process.env.BENCH_FLOOR_PREFIX ?? 'r1';
const POOL = 5; // the worker's SMTP_POOL_SIZE default; the floor uses as many connections
const log = (line: string): void => console.log(line);

let received = 0;
let firstAt = 0;
let lastAt = 0;
const dns = await startDnsServer();
const stack = await startBenchStack(log, {
  onMessage: () => {
    received += 1;
    lastAt = performance.now();
    if (received === 1) firstAt = lastAt;
  },
  env: {
    DNS_SERVERS: dns.address,
    SPF_INCLUDE: '_spf.bench.test',
    SMTP_POOL_SIZE: String(POOL),
  },
});

async function waitFor(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 900_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const db = new pg.Client({ connectionString: stack.databaseUrl });
await db.connect();
try {
  const worker = await stack.startWorker();
  const pids = { api: stack.apiPid, worker: worker.child.pid as number };
  const project = await benchProject(stack.apiUrl);
  const auth = { authorization: `Bearer ${project.secretKey}` };
  const domain = await verifiedBenchDomain(stack, dns, auth);

  log(`\nSeeding ${CONTACTS.toLocaleString('en')} contacts...`);
  await db.query(
    `INSERT INTO contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
     SELECT uuid_generate_v7(), $1, 'r' || n || '@bench.test', true,
            jsonb_build_object('firstName', 'Reader ' || n), now(), now(), now()
       FROM generate_series(0, $2::int - 1) AS n`,
    [project.id, CONTACTS],
  );
  await db.query('VACUUM ANALYZE contacts');

  const created = await json(`${stack.apiUrl}/campaigns`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      name: 'Bench',
      subject: 'News for {{ data.firstName }}',
      body: '<h1>Hello {{ data.firstName }}</h1><p>What is new this month.</p><p><a href="https://shop.example.com/news">Read</a></p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    }),
  });
  if (created.status !== 201) throw new Error(`campaign: ${JSON.stringify(created.body)}`);
  const campaignId = created.body.data.id as string;

  // The sign-up's own mail reached the sink already; count the campaign's alone.
  received = 0;
  const cpuBefore = await cpuSnapshot(pids);
  const started = performance.now();
  const sent = await json(`${stack.apiUrl}/campaigns/${campaignId}/send`, {
    method: 'POST',
    headers: auth,
  });
  const answeredIn = performance.now() - started;
  if (sent.status !== 200) throw new Error(`send: ${JSON.stringify(sent.body)}`);
  let snapshotIn = 0;
  await waitFor(async () => {
    const { rows } = await db.query(
      'SELECT snapshot_at IS NOT NULL AS done FROM campaigns WHERE id = $1',
      [campaignId],
    );
    if (rows[0]?.done) snapshotIn = performance.now() - started;
    return Boolean(rows[0]?.done);
  }, 'the snapshot');
  await waitFor(() => received >= CONTACTS, `${CONTACTS} emails`);
  const oursCpu = cpuDelta(cpuBefore, await cpuSnapshot(pids));
  const deliveredIn = lastAt - started;
  const firstIn = firstAt - started; // the floor below moves firstAt and lastAt on
  const steadyRate = (CONTACTS - 1) / ((lastAt - firstAt) / 1000);
  await waitFor(async () => {
    const res = await json(`${stack.apiUrl}/campaigns/${campaignId}`, { headers: auth });
    return res.body.data.status === 'SENT';
  }, 'SENT');
  const stats = (await json(`${stack.apiUrl}/campaigns/${campaignId}/stats`, { headers: auth }))
    .body.data;
  const { rows: recipientRows } = await db.query(
    `SELECT count(*)::int AS n FROM campaign_recipients WHERE campaign_id = $1`,
    [campaignId],
  );

  // The floor: the same messages, composed by our code, sent by nodemailer's pool directly.
  const messages = await composeFloorMessages(stack, {
    projectId: project.id,
    toPrefix: FLOOR_PREFIX,
  });
  received = 0;
  const floorCpuBefore = await cpuSnapshot(pids);
  const floorStarted = performance.now();
  await sendThroughPool(stack.smtpUrl, messages, POOL);
  await waitFor(() => received >= messages.length, 'the floor');
  const floorIn = performance.now() - floorStarted;
  const floorCpu = cpuDelta(floorCpuBefore, await cpuSnapshot(pids));

  const oursRate = CONTACTS / (deliveredIn / 1000);
  const floorRate = messages.length / (floorIn / 1000);
  const perThousand = (cpu: Record<string, number>, emails: number) =>
    Object.fromEntries(
      Object.entries(cpu).map(([k, v]) => [k, Math.round((v / emails) * 1000 * 100) / 100]),
    );
  const widths = [52, 14];
  const row = (label: string, value: string | number): void =>
    log(formatRow([label, value], widths));
  log(
    `\nA campaign to ${CONTACTS.toLocaleString('en')} contacts (ALL), ${POOL} SMTP connections\n`,
  );
  row('send call answered (ms)', Math.round(answeredIn));
  row('audience snapshotted, from the send call (ms)', Math.round(snapshotIn));
  row('first email at the SMTP server, from the call (ms)', Math.round(firstIn));
  row('last email, from the call (s)', (deliveredIn / 1000).toFixed(1));
  row('ours: delivered emails/s (call to last email)', Math.round(oursRate));
  row('ours: delivered emails/s (first to last email)', Math.round(steadyRate));
  row(`floor: emails/s (${messages.length} messages)`, Math.round(floorRate));
  row('ratio ours/floor (call to last email)', (oursRate / floorRate).toFixed(2));
  row('recipients snapshotted', recipientRows[0].n);
  row('stats.sent', stats.sent);
  log('\nCPU seconds per 1,000 emails by process (bench: the sink, and the floor own sends):');
  log(`  ours:  ${JSON.stringify(perThousand(oursCpu, CONTACTS))}`);
  log(`  floor: ${JSON.stringify(perThousand(floorCpu, messages.length))}`);
  log(
    `\ntargets: snapshot < 2000 ms, first email < 1000 ms, ratio >= 0.8; ` +
      `snapshot ${snapshotIn < 2000 ? 'met' : 'MISSED'}, first email ${
        firstIn < 1000 ? 'met' : 'MISSED'
      }, ratio ${oursRate / floorRate >= 0.8 ? 'met' : 'MISSED'}`,
  );
} finally {
  await db.end();
  await stack.stop();
  await dns.stop();
}
