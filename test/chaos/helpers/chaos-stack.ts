import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate, openOrm } from '../../../db/orm.js';
import { freePort } from '../../../runtime/embedded/free-port.js';
import {
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../../runtime/embedded/postgres.js';
import {
  startTemporalDevServer,
  type TemporalDevServerHandle,
} from '../../../runtime/embedded/temporal-server.js';
import { startDnsServer, type DnsServer } from '../../helpers/dns-server.js';
import { eventually } from '../../helpers/eventually.js';
import { createClient, type Client } from '../../helpers/http.js';
import { runEntryPoint, type RunningProcess } from '../../helpers/processes.js';
import { startSmtpCapture, type SmtpCapture } from '../../helpers/smtp-capture.js';

/** The SPF include the chaos files' domains publish. */
const SPF_INCLUDE = '_spf.mailwright.test';

export interface ChaosStack {
  api: Client;
  smtp: SmtpCapture;
  dns: DnsServer;
  env: Record<string, string>;
  /** One statement against the file's own database (a fresh connection each time). */
  query: <R extends pg.QueryResultRow = any>(text: string, params?: unknown[]) => Promise<R[]>;
  /** GET /health/ready: its status code (0 when the API does not answer) and body. */
  readiness: () => Promise<{ status: number; body: any }>;
  /** The API and the worker that run now (the ones a fault has not replaced). */
  processes: () => { api: RunningProcess; worker: RunningProcess };
  killWorker: () => Promise<void>;
  startWorker: () => Promise<void>;
  killApi: () => Promise<void>;
  startApi: () => Promise<void>;
  /** SIGKILL to the Temporal dev server; `startTemporal` brings it back on its port and file. */
  killTemporal: () => Promise<void>;
  startTemporal: () => Promise<void>;
  /** Fast shutdown of PostgreSQL; `startPostgres` starts it again on its port and directory. */
  stopPostgres: () => Promise<void>;
  startPostgres: () => Promise<void>;
  stop: () => Promise<void>;
}

const log = (line: string): void => console.log(`[chaos] ${line}`);

/**
 * A whole installation of one chaos file's own: PostgreSQL and a Temporal dev server in a fresh
 * directory (so a fault here touches no other file), an SMTP capture, a DNS server, and the API
 * and the worker as child processes from the entry points users run.
 */
export async function startChaosStack(extra: Record<string, string> = {}): Promise<ChaosStack> {
  const shared = inject('chaos');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'mw-chaos-'));
  await chmod(dataDir, 0o755);

  let postgres: EmbeddedPostgresHandle | undefined = await startEmbeddedPostgres({ dataDir, log });
  const databasePort = Number(new URL(postgres.url).port);
  const databaseUrl = postgres.url;
  const orm = await openOrm({ url: databaseUrl });
  await migrate(orm);
  await orm.close();

  const startTemporalAt = (port?: number): Promise<TemporalDevServerHandle> =>
    startTemporalDevServer({ cli: shared.temporalCli, dataDir, port, headless: true, log });
  let temporal: TemporalDevServerHandle | undefined = await startTemporalAt();
  const temporalPort = Number(temporal.address.split(':')[1]);

  const smtp = await startSmtpCapture();
  const dns = await startDnsServer();
  const port = await freePort();
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    TRUST_PROXY: 'true',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: '5',
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: `chaos-${randomUUID()}`,
    WORKFLOW_BUNDLE_PATH: shared.workflowBundlePath,
    SMTP_URL: smtp.url,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    EMAIL_WEBHOOK_SECRET: randomBytes(32).toString('base64url'),
    DNS_SERVERS: dns.address,
    SPF_INCLUDE,
    DNS_TIMEOUT_MS: '500',
    DOMAIN_RECHECK_INTERVAL: '8760h',
    SEGMENT_RECOMPUTE_INTERVAL: '8760h',
    BILLING_REPORT_INTERVAL: '8760h',
    EVENT_COUNTS_FOLD_INTERVAL: '8760h',
    // The worker at the test runner's priority: the tests' own load and checks compete with it for
    // the CPU and wait on it (supervisor.test.ts checks the default, below the API).
    WORKER_NICE: '0',
    EMAIL_DISPATCH_INTERVAL: '1h',
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...extra,
  };

  let api: RunningProcess | undefined;
  let worker: RunningProcess | undefined;
  const killed = new Set<RunningProcess>();
  // A process that dies of itself is what the suite looks for: say so at once, with its last words.
  const watch = (name: string, started: RunningProcess): RunningProcess => {
    void started.exited.then((code) => {
      if (killed.has(started)) return;
      const errors = started
        .output()
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line))
        .slice(-5)
        .map((line) => line.slice(0, 2000));
      log(`${name} exited by itself (${code}); its last errors:\n${errors.join('\n')}`);
    });
    return started;
  };
  const startApi = async (): Promise<void> => {
    const started = watch('api', runEntryPoint('runtime/api.ts', env));
    api = started;
    await started.waitForOutput(/"msg":"api listening"/, 90_000);
  };
  const startWorker = async (): Promise<void> => {
    const started = watch('worker', runEntryPoint('runtime/worker.ts', env));
    worker = started;
    await started.waitForOutput(/"msg":"worker running"/, 90_000);
  };
  await Promise.all([startApi(), startWorker()]);

  const client = createClient(env.PUBLIC_URL as string);
  const query = async <R extends pg.QueryResultRow>(
    text: string,
    params: unknown[] = [],
  ): Promise<R[]> => {
    const db = new pg.Client({ connectionString: databaseUrl });
    db.on('error', () => undefined);
    await db.connect();
    try {
      return (await db.query<R>(text, params)).rows;
    } finally {
      await db.end().catch(() => undefined);
    }
  };

  return {
    api: client,
    smtp,
    dns,
    env,
    query,
    readiness: async () => {
      // A request cut off by the outage answers nothing: bounded, so a poll never hangs.
      try {
        const res = await fetch(`${env.PUBLIC_URL}/health/ready`, {
          signal: AbortSignal.timeout(15_000),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      } catch {
        return { status: 0, body: undefined };
      }
    },
    processes: () => ({ api: api as RunningProcess, worker: worker as RunningProcess }),
    killWorker: async () => {
      if (worker) killed.add(worker);
      await worker?.stop('SIGKILL');
    },
    startWorker,
    killApi: async () => {
      if (api) killed.add(api);
      await api?.stop('SIGKILL');
    },
    startApi,
    killTemporal: async () => {
      const pid = temporal?.pid;
      temporal = undefined;
      if (pid === undefined) return;
      process.kill(pid, 'SIGKILL');
      await eventually(
        () => {
          try {
            process.kill(pid, 0);
            return false;
          } catch {
            return true;
          }
        },
        { what: 'the Temporal dev server to die', timeoutMs: 10_000, intervalMs: 20 },
      );
    },
    startTemporal: async () => {
      temporal = await startTemporalAt(temporalPort);
    },
    stopPostgres: async () => {
      await postgres?.stop();
      postgres = undefined;
    },
    startPostgres: async () => {
      postgres = await startEmbeddedPostgres({ dataDir, log, port: databasePort });
    },
    stop: async () => {
      for (const running of [api, worker]) if (running) killed.add(running);
      await Promise.all([api?.stop(), worker?.stop()]);
      await smtp.stop();
      await dns.stop();
      await temporal?.stop().catch(() => undefined);
      await postgres?.stop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Verifies a domain through the stack's DNS server (the verified-domain route). */
export async function chaosDomain(
  stack: ChaosStack,
  key: string,
): Promise<{ id: string; domain: string }> {
  const name = `chaos-${Math.random().toString(36).slice(2, 8)}.example.test`;
  const added = await stack.api.post('/domains', { key, body: { domain: name } });
  if (added.status !== 201) throw new Error(`POST /domains: ${added.status} ${added.text}`);
  for (const record of added.body.records as { type: string; name: string; value: string }[]) {
    if (record.type === 'MX') {
      const [priority, exchange] = record.value.split(' ');
      stack.dns.publishMx(record.name, exchange as string, Number(priority));
    } else {
      stack.dns.publishTxt(record.name, record.value);
    }
  }
  const verified = await stack.api.get(`/domains/${added.body.id}/verify`, { key });
  if (verified.body.status !== 'VERIFIED') throw new Error(`verify: ${verified.text}`);
  return { id: added.body.id, domain: name };
}
