// npm run bench:campaign — a campaign to 100,000 contacts through the full stack (API, the
// campaign-send workflow, the delivery lanes, DKIM, pooled SMTP) to a counting SMTP sink in its
// own process (bench/lib/counting-sink.ts: no parsing, no disk): time to the audience's snapshot,
// time to the first email, delivered emails/s and CPU seconds per 1,000 emails in each process
// (API, worker, PostgreSQL, Temporal, the sink, the bench itself), next to a floor measured in the
// same run: the same messages, built and DKIM-signed before the clock starts, written over as
// many connections (SMTP_POOL_SIZE) to the same sink by a pipelining client
// (bench/lib/raw-smtp.ts). Content is checked by the tests (campaigns.test.ts: mailauth and
// mailparser), not here. Settings: BENCH_CONTACTS (100000), BENCH_FLOOR_PREFIX (r1: the
// recipients r1, r10.., r1xxxx, 11,111 of 100,000, whose messages the floor sends), BENCH_DKIM
// (1; 0 sends ours and the floor unsigned, for the bench only: the domain's selector is
// emptied in the database, and a domain without one is not signed for).
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { startDnsServer } from '../test/helpers/dns-server.js';
import { startCountingSink } from './lib/counting-sink.js';
import { cpuDelta, cpuSnapshot } from './lib/cpu.js';
import { resetStatements, topStatements } from './lib/pg-statements.js';
import { prebuildMessages, sendRawOverConnections } from './lib/raw-smtp.js';
import { composeFloorMessages, verifiedBenchDomain } from './lib/sending.js';
import { benchProject, formatRow, json, startBenchStack } from './lib/stack.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const FLOOR_PREFIX = process.env.BENCH_FLOOR_PREFIX ?? 'r1';
const DKIM = process.env.BENCH_DKIM !== '0';
const POOL = 5; // the worker's SMTP_POOL_SIZE default; the floor uses as many connections
const log = (line: string): void => console.log(line);
const now = (): number => performance.timeOrigin + performance.now(); // the sink's clock too

const loadAt = (label: string): void =>
  log(`uptime ${label}: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
loadAt('at start');
const sink = await startCountingSink();
const dns = await startDnsServer();
const stack = await startBenchStack(log, {
  env: {
    DNS_SERVERS: dns.address,
    SPF_INCLUDE: '_spf.bench.test',
    SMTP_POOL_SIZE: String(POOL),
    SMTP_URL: sink.url,
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
  const pids = { api: stack.apiPid, worker: worker.child.pid as number, sink: sink.pid };
  const cpuNow = () =>
    cpuSnapshot(pids, { postgresPid: stack.postgresPid, temporalPid: stack.temporalPid });
  const project = await benchProject(stack.apiUrl);
  const auth = { authorization: `Bearer ${project.secretKey}` };
  const domain = await verifiedBenchDomain(stack, dns, auth);
  if (!DKIM) {
    await db.query(`UPDATE domains SET selector = '' WHERE project_id = $1 AND domain = $2`, [
      project.id,
      domain,
    ]);
  }

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
      subject: 'News for {{ firstName }}',
      body: '<h1>Hello {{ firstName }}</h1><p>What is new this month.</p><p><a href="https://shop.example.com/news">Read</a></p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    }),
  });
  if (created.status !== 201) throw new Error(`campaign: ${JSON.stringify(created.body)}`);
  const campaignId = created.body.data.id as string;

  // The sign-up's own mail reached the sink already; count the campaign's alone.
  await sink.reset();
  loadAt('before the campaign');
  await resetStatements(stack.databaseUrl);
  const cpuBefore = await cpuNow();
  // The worker's resident memory, sampled every second while the campaign runs (its peak is
  // printed; a 1,000,000 campaign must stay under 400 MB).
  let workerRssPeakMb = 0;
  const rssSampler = setInterval(() => {
    void readFile(`/proc/${pids.worker}/status`, 'utf8')
      .then((status) => {
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
        workerRssPeakMb = Math.max(workerRssPeakMb, Math.round(kb / 1024));
      })
      .catch(() => undefined);
  }, 1000);
  const started = now();
  const sent = await json(`${stack.apiUrl}/campaigns/${campaignId}/send`, {
    method: 'POST',
    headers: auth,
  });
  const answeredIn = now() - started;
  if (sent.status !== 200) throw new Error(`send: ${JSON.stringify(sent.body)}`);
  let snapshotIn = 0;
  await waitFor(async () => {
    const { rows } = await db.query(
      'SELECT snapshot_at IS NOT NULL AS done FROM campaigns WHERE id = $1',
      [campaignId],
    );
    if (rows[0]?.done) snapshotIn = now() - started;
    return Boolean(rows[0]?.done);
  }, 'the snapshot');
  let ours = await sink.counts();
  await waitFor(
    async () => {
      ours = await sink.counts();
      return ours.count >= CONTACTS;
    },
    `${CONTACTS} emails`,
    // 15 minutes, or what 250 emails a second need (a million on a slow machine takes longer).
    Math.max(900_000, (CONTACTS / 250) * 1000),
  );
  const oursCpu = cpuDelta(cpuBefore, await cpuNow());
  clearInterval(rssSampler);
  loadAt('after the campaign');
  const statements = await topStatements(stack.databaseUrl, 15);
  if (statements) log(`\nPostgreSQL statements during the campaign, by total time:\n${statements}`);
  const deliveredIn = ours.lastAt - started;
  const firstIn = ours.firstAt - started;
  const steadyRate = (CONTACTS - 1) / ((ours.lastAt - ours.firstAt) / 1000);
  await waitFor(async () => {
    const res = await json(`${stack.apiUrl}/campaigns/${campaignId}`, { headers: auth });
    return res.body.data.status === 'SENT';
  }, 'SENT');
  const stats = (await json(`${stack.apiUrl}/campaigns/${campaignId}/stats`, { headers: auth }))
    .body.data;
  // Every email is SENT now: what the sink counted beyond the audience was sent twice.
  const received = (await sink.counts()).count;
  const { rows: recipientRows } = await db.query(
    `SELECT count(*)::int AS n FROM campaign_recipients WHERE campaign_id = $1`,
    [campaignId],
  );

  // The floor: the same messages, composed by our code and built and signed before the clock
  // starts, written over as many connections to the same sink.
  const messages = await prebuildMessages(
    await composeFloorMessages(stack, { projectId: project.id, toPrefix: FLOOR_PREFIX }),
  );
  await sink.reset();
  const floorCpuBefore = await cpuNow();
  const floorStarted = now();
  const sinkAddress = new URL(sink.url);
  await sendRawOverConnections({
    host: sinkAddress.hostname,
    port: Number(sinkAddress.port),
    messages,
    connections: POOL,
  });
  let floor = await sink.counts();
  await waitFor(async () => {
    floor = await sink.counts();
    return floor.count >= messages.length;
  }, 'the floor');
  const floorIn = floor.lastAt - floorStarted;
  const floorCpu = cpuDelta(floorCpuBefore, await cpuNow());

  const oursRate = CONTACTS / (deliveredIn / 1000);
  const floorRate = messages.length / (floorIn / 1000);
  const perThousand = (cpu: Record<string, number>, emails: number) =>
    Object.fromEntries(
      Object.entries(cpu).map(([k, v]) => [k, Math.round((v / emails) * 1000 * 100) / 100]),
    );
  const oursPerThousand = perThousand(oursCpu, CONTACTS);
  // What the install spends: the API, the worker, PostgreSQL and Temporal (not the sink, not the bench).
  const installPerThousand =
    Math.round(
      ['api', 'worker', 'postgres', 'temporal'].reduce(
        (sum, k) => sum + (oursPerThousand[k] ?? 0),
        0,
      ) * 100,
    ) / 100;
  const widths = [56, 14];
  const row = (label: string, value: string | number): void =>
    log(formatRow([label, value], widths));
  log(
    `\nA campaign to ${CONTACTS.toLocaleString('en')} contacts (ALL), ${POOL} SMTP connections, ${DKIM ? 'DKIM-signed' : 'unsigned (BENCH_DKIM=0)'}\n`,
  );
  row('send call answered (ms)', Math.round(answeredIn));
  row('audience snapshotted, from the send call (ms)', Math.round(snapshotIn));
  row('first email at the SMTP server, from the call (ms)', Math.round(firstIn));
  row('last email, from the call (s)', (deliveredIn / 1000).toFixed(1));
  row('ours: delivered emails/s (call to last email)', Math.round(oursRate));
  row('ours: delivered emails/s (first to last email)', Math.round(steadyRate));
  row(`floor: emails/s (${messages.length} pre-signed messages)`, Math.round(floorRate));
  row('ratio ours/floor (call to last email)', (oursRate / floorRate).toFixed(2));
  row('recipients snapshotted', recipientRows[0].n);
  row('stats.sent', stats.sent);
  row('messages at the SMTP server', received);
  log('\nCPU seconds per 1,000 emails by process (sink: the counting sink; bench: this script):');
  log(`  ours:  ${JSON.stringify(oursPerThousand)}`);
  log(`  floor: ${JSON.stringify(perThousand(floorCpu, messages.length))}`);
  log(`  ours, API + worker + PostgreSQL + Temporal: ${installPerThousand}`);
  const targets: [string, boolean][] = [
    [`emails/s (call to last) >= 1000: ${Math.round(oursRate)}`, oursRate >= 1000],
    [
      `ratio ours/floor >= 0.85: ${(oursRate / floorRate).toFixed(2)}`,
      oursRate / floorRate >= 0.85,
    ],
    [
      `CPU s per 1,000 emails (API + worker + PostgreSQL + Temporal) <= 1.5: ${installPerThousand}`,
      installPerThousand <= 1.5,
    ],
    [`first email < 500 ms: ${Math.round(firstIn)}`, firstIn < 500],
    [`snapshot < 1000 ms: ${Math.round(snapshotIn)}`, snapshotIn < 1000],
    [`worker RSS peak < 400 MB: ${workerRssPeakMb} MB`, workerRssPeakMb < 400],
    [`each recipient mailed once: ${received} messages`, received === CONTACTS],
  ];
  log('\ntargets:');
  for (const [label, met] of targets) log(`  ${met ? 'PASS' : 'MISS'}  ${label}`);
} finally {
  await db.end();
  await stack.stop();
  await dns.stop();
  await sink.stop();
}
