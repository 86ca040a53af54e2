import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../runtime/embedded/free-port.js';
import { isAlive } from '../../runtime/embedded/process-guard.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { verifiedDomain } from '../helpers/domains.js';
import { createClient, sessionCookieOf } from '../helpers/http.js';
import { ROOT } from '../helpers/processes.js';
import { eventually } from '../helpers/eventually.js';

// `npm start` exactly as a user runs it, twice on one DATA_DIR.
let dataDir: string;
let dns: DnsServer | undefined;
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await dns?.stop();
});

/** The sink's .eml files whose text contains `needle`. */
async function sunkMail(dir: string, needle: string): Promise<number> {
  const { readdir } = await import('node:fs/promises');
  const files = await readdir(dir).catch(() => [] as string[]);
  let n = 0;
  for (const f of files) if ((await readFile(path.join(dir, f), 'utf8')).includes(needle)) n += 1;
  return n;
}

const waitUntil = async (
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> => {
  await eventually(check, { what, timeoutMs, intervalMs: 200 });
};

async function npmStart(env: Record<string, string>) {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  // 'close': the process has exited and everything it printed has been read.
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  await waitUntil(
    () => output.includes('Press Ctrl-C to stop.') || child.exitCode !== null,
    240_000,
    'npm start',
  );
  if (!output.includes('Press Ctrl-C to stop.')) throw new Error(`npm start failed:\n${output}`);
  const field = (label: string): string => {
    const match = new RegExp(`${label}:\\s+(\\S+)`).exec(output);
    if (!match?.[1]) throw new Error(`No ${label} in:\n${output}`);
    return match[1];
  };
  const login = /Login:\s+(\S+) \/ (\S+)/.exec(output);
  return {
    child,
    exited,
    output: () => output,
    apiUrl: field('API'),
    docsUrl: field('API docs'),
    uiUrl: field('Temporal UI'),
    email: login?.[1] as string,
    password: login?.[2] as string,
    projectId: field('Project'),
    publicKey: field('Public key'),
    secretKey: field('Secret key'),
  };
}

/**
 * Runs `work` against the embedded PostgreSQL of a DATA_DIR, found by the port its
 * postmaster.pid names (the file's fourth line), as the user runtime/embedded/postgres.ts makes.
 */
async function embeddedDatabase<T>(dir: string, work: (db: pg.Client) => Promise<T>): Promise<T> {
  const postmaster = await readFile(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8');
  const port = Number(postmaster.split('\n')[3]);
  const db = new pg.Client({
    connectionString: `postgres://mailwright:mailwright@127.0.0.1:${port}/mailwright`,
  });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

async function childPids(dir: string): Promise<number[]> {
  const postgres = await readFile(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8');
  const temporal = await readFile(path.join(dir, 'temporal', 'server.pid'), 'utf8');
  return [Number(postgres.split('\n')[0]), Number(temporal.split('\n')[0])];
}

describe('npm start', () => {
  it('runs the whole service on embedded defaults, keeps its data and stops cleanly', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'mailwright-start-'));
    await chmod(dataDir, 0o755);
    const resolver = await startDnsServer();
    dns = resolver;
    const env = {
      // Domains verify against the test's own DNS server (loopback only).
      DNS_SERVERS: resolver.address,
      SPF_INCLUDE: '_spf.mailwright.test',
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: '',
      SMTP_URL: '',
      LOG_LEVEL: 'warn',
    };

    const first = await npmStart(env);
    expect(first.docsUrl).toBe(`${first.apiUrl}/docs`);
    expect(first.secretKey).toMatch(/^sk_/);
    expect(first.publicKey).toMatch(/^pk_/);
    const api = createClient(first.apiUrl);
    expect((await api.get('/health')).status).toBe(200);
    expect((await api.get('/ready')).status).toBe(200);
    expect((await api.get('/docs')).status).toBe(200);
    const ui = await fetch(first.uiUrl);
    expect(ui.status).toBe(200);
    // The dashboard links job runs to the dev server's UI.
    expect((await api.get('/config')).body.temporalUiUrl).toBe(first.uiUrl);
    const login = await api.post('/auth/login', {
      body: { email: first.email, password: first.password },
    });
    expect(login.status).toBe(200);
    expect(
      (await api.get(`/projects/${first.projectId}/setup-state`, { key: first.secretKey })).status,
    ).toBe(200);

    // A sign-up's verification email lands in the sink as an .eml file.
    await api.post('/auth/signup', {
      body: { email: 'sink-check@example.com', password: 'long enough pw' },
    });
    const mailDir = path.join(dataDir, 'mail');
    await waitUntil(
      async () =>
        (await import('node:fs/promises')).readdir(mailDir).then(
          (f) => f.length > 0,
          () => false,
        ),
      30_000,
      'an .eml file in the mail sink',
    );

    // A campaign scheduled ahead survives the whole service stopping and starting again: it is
    // sent once, after its time.
    const sk = { key: first.secretKey };
    const { domain } = await verifiedDomain(api, resolver, sk.key, 'restart-campaign.example.test');
    const contact = await api.post('/contacts', {
      ...sk,
      body: { email: 'scheduled-reader@example.com', subscribed: true },
    });
    expect(contact.status, contact.text).toBeLessThan(300);
    const campaign = await api.post('/campaigns', {
      ...sk,
      body: {
        name: 'Across a restart',
        subject: 'Scheduled across a restart',
        body: '<p>Hello</p>',
        from: `news@${domain}`,
        audienceType: 'FILTERED',
        audienceFilter: {
          operator: 'AND',
          conditions: [
            { field: 'email', operator: 'equals', value: 'scheduled-reader@example.com' },
          ],
        },
      },
    });
    expect(campaign.status, campaign.text).toBe(201);
    // Far enough ahead that a loaded machine restarts the service before it.
    const sendAt = new Date(Date.now() + 60_000);
    const scheduled = await api.post(`/campaigns/${campaign.body.data.id}/send`, {
      ...sk,
      body: { scheduledFor: sendAt.toISOString() },
    });
    expect(scheduled.body.data?.status, scheduled.text).toBe('SCHEDULED');

    // SIGTERM to npm itself: the service notices and stops everything it started.
    const pids = await childPids(dataDir);
    expect(pids.every(isAlive)).toBe(true);
    first.child.kill('SIGTERM');
    await first.exited;
    await waitUntil(
      () => pids.every((pid) => !isAlive(pid)),
      30_000,
      'postgres and temporal to stop',
    );

    const second = await npmStart(env);
    expect(second.email).toBe(first.email);
    expect(second.secretKey).toBe(first.secretKey);
    const again = createClient(second.apiUrl);
    const relogin = await again.post('/auth/login', {
      body: { email: first.email, password: first.password },
    });
    expect(relogin.status).toBe(200);
    expect((await again.get('/users/@me', { cookie: sessionCookieOf(relogin) })).status).toBe(200);
    expect(
      (await again.get(`/projects/${first.projectId}/setup-state`, { key: first.secretKey }))
        .status,
    ).toBe(200);
    // Data from the first run is still there: the sign-up's account exists.
    expect(
      (
        await again.post('/auth/signup', {
          body: { email: 'sink-check@example.com', password: 'long enough pw' },
        })
      ).status,
    ).toBe(409);

    // Started again before the campaign's time; it goes out once, after it.
    expect(Date.now()).toBeLessThan(sendAt.getTime());
    await waitUntil(
      async () => (await sunkMail(mailDir, 'Scheduled across a restart')) > 0,
      120_000,
      'the scheduled campaign',
    );
    expect(Date.now()).toBeGreaterThanOrEqual(sendAt.getTime());
    await waitUntil(
      async () =>
        (await again.get(`/campaigns/${campaign.body.data.id}`, sk)).body.data.status === 'SENT',
      30_000,
      'the campaign to be SENT',
    );
    // One row in the outbox for it, SENT: nothing left that could go out again. (The sink's
    // copies are counted once the service has stopped, when no more can arrive.)
    let outbox: { to_address: string; status: string }[] = [];
    await waitUntil(
      async () => {
        outbox = await embeddedDatabase(dataDir, async (db) => {
          const { rows } = await db.query(
            'SELECT to_address, status FROM emails WHERE campaign_id = $1',
            [campaign.body.data.id],
          );
          return rows;
        });
        return outbox.length > 0 && outbox.every((row) => row.status !== 'QUEUED');
      },
      30_000,
      'the campaign email to leave the outbox',
    );
    expect(outbox).toEqual([{ to_address: 'scheduled-reader@example.com', status: 'SENT' }]);

    // Ctrl-C: SIGINT to the whole process group, as a terminal sends it. The embedded servers
    // are not in that group: they stop last, after the API, the worker and its delivery lanes.
    const secondPids = await childPids(dataDir);
    const printedBefore = second.output().length;
    process.kill(-(second.child.pid as number), 'SIGINT');
    await second.exited;
    await waitUntil(
      () => secondPids.every((pid) => !isAlive(pid)),
      30_000,
      'postgres and temporal to stop',
    );
    // Everything has stopped, the mail sink too: the copies it received are all there will be.
    expect(await sunkMail(mailDir, 'Scheduled across a restart')).toBe(1);
    const printedOnStop = second.output().slice(printedBefore);
    expect(printedOnStop).not.toMatch(/Unhandled|Error|\n\s+at /);
    expect(printedOnStop).toContain('temporal dev server stopped');
    expect(second.child.exitCode).toBe(0);
  }, 600_000);
});
