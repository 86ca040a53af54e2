import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Connection, isGrpcServiceError } from '@temporalio/client';
import pg from 'pg';
import { inject } from 'vitest';
import { freePort } from '../../../runtime/embedded/free-port.js';
import {
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../../runtime/embedded/postgres.js';
import { startDnsServer, type DnsServer } from '../../helpers/dns-server.js';
import {
  createClient,
  type Client,
  type HttpResponse,
  type RequestOptions,
} from '../../helpers/http.js';
import { runEntryPoint, type RunningProcess } from '../../helpers/processes.js';
import {
  startSmtpCapture,
  type CapturedEmail,
  type SmtpCapture,
} from '../../helpers/smtp-capture.js';
import type { TemporalStore } from './temporal-server-config.js';
import {
  setUpTemporalSchema,
  startTemporalSqlServer,
  type TemporalSqlServerHandle,
} from './temporal-sql-server.js';

/** Two of each, as the issue asks: the smallest shape in which one of a kind can die. */
export const REPLICAS = 2;

/** The namespace the app is configured with; a fresh server does not have it. */
export const NAMESPACE = 'default';

export interface ReplicaStack {
  /** A client of API `i` (its own port, as a load balancer's back end). */
  api: (i: number) => Client;
  /**
   * A client that spreads requests over the APIs in turn and, as a load balancer does, sends a
   * request whose API does not answer to the next one. Only for GETs and requests carrying an
   * Idempotency-Key: a request cut off mid-way may have been carried out.
   */
  balanced: Client;
  /** One SMTP server per worker slot (SMTP_URL of worker `i`), so a kill can be aimed at one. */
  smtp: SmtpCapture[];
  /** What every SMTP server accepted. */
  messages: () => CapturedEmail[];
  dns: DnsServer;
  temporal: TemporalSqlServerHandle;
  /** Whether the app's namespace existed on the server before the first worker started. */
  namespaceExistedBeforeStart: boolean;
  env: Record<string, string>;
  query: <R extends pg.QueryResultRow = any>(text: string, params?: unknown[]) => Promise<R[]>;
  apiProcess: (i: number) => RunningProcess;
  workerProcess: (i: number) => RunningProcess;
  killApi: (i: number) => Promise<void>;
  /** Starts API `i` again on its port, with `extra` settings on top of the stack's. */
  startApi: (i: number, extra?: Record<string, string>) => Promise<void>;
  stopApi: (i: number) => Promise<void>;
  killWorker: (i: number) => Promise<void>;
  startWorker: (i: number) => Promise<void>;
  stop: () => Promise<void>;
}

const log = (line: string): void => console.log(`[replicas] ${line}`);

function isConnectionFailure(error: unknown): boolean {
  // fetch's "fetch failed" (refused, reset, closed before the answer).
  return error instanceof TypeError;
}

/**
 * The production shape on one machine: one PostgreSQL holding the app's database and the
 * Temporal server's two, a Temporal server on it (schema set up with temporal-sql-tool, not the
 * dev server), SMTP and DNS servers, and REPLICAS API and REPLICAS worker processes started from
 * the entry points operators run (`npm run api`, `npm run worker`), all on one task queue.
 */
export async function startReplicaStack(extra: Record<string, string> = {}): Promise<ReplicaStack> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'mw-replicas-'));
  await chmod(dataDir, 0o755);
  // What stops each part started so far, in reverse order: the stack's stop, and the clean-up
  // when a part fails to start (nothing is left running behind a failed start).
  const undo: (() => Promise<unknown>)[] = [() => rm(dataDir, { recursive: true, force: true })];
  const unwind = async (): Promise<void> => {
    for (const step of undo.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    return await assemble({ dataDir, extra, undo, unwind });
  } catch (error) {
    await unwind();
    throw error;
  }
}

async function assemble({
  dataDir,
  extra,
  undo,
  unwind,
}: {
  dataDir: string;
  extra: Record<string, string>;
  undo: (() => Promise<unknown>)[];
  unwind: () => Promise<void>;
}): Promise<ReplicaStack> {
  const shared = inject('replicas');
  // Four processes' pools and the Temporal server's (per service) share this one server.
  const postgres: EmbeddedPostgresHandle = await startEmbeddedPostgres({
    dataDir,
    log,
    settings: ['max_connections=300'],
  });
  undo.push(() => postgres.stop());
  const databaseUrl = postgres.url;
  const url = new URL(databaseUrl);
  const store: TemporalStore = {
    host: '127.0.0.1',
    port: Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: 'temporal',
    visibilityDatabase: 'temporal_visibility',
  };
  await setUpTemporalSchema({ sqlTool: shared.tools.sqlTool, store, log });
  const temporal = await startTemporalSqlServer({
    server: shared.tools.server,
    store,
    dir: path.join(dataDir, 'temporal-server'),
    log,
  });
  undo.push(() => temporal.stop());
  const namespaceExistedBeforeStart = await namespaceExists(temporal.address, NAMESPACE);

  const smtp = await Promise.all(Array.from({ length: REPLICAS }, () => startSmtpCapture()));
  undo.push(() => Promise.all(smtp.map((sink) => sink.stop())));
  const dns = await startDnsServer();
  undo.push(() => dns.stop());
  const ports = await Promise.all(Array.from({ length: REPLICAS }, () => freePort()));
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    TRUST_PROXY: 'true',
    // The address a load balancer in front of the APIs would have; links in emails use it.
    PUBLIC_URL: urls[0] as string,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: '5',
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: NAMESPACE,
    TEMPORAL_TASK_QUEUE: `replicas-${randomUUID()}`,
    WORKFLOW_BUNDLE_PATH: shared.workflowBundlePath,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    EMAIL_WEBHOOK_SECRET: randomBytes(32).toString('base64url'),
    DNS_SERVERS: dns.address,
    SPF_INCLUDE: '_spf.mailwright.test',
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

  const apis: (RunningProcess | undefined)[] = [];
  const workers: (RunningProcess | undefined)[] = [];
  const stopped = new Set<RunningProcess>();
  // A process that dies of itself is what the suite looks for: say so at once, with its last words.
  const watch = (name: string, started: RunningProcess): RunningProcess => {
    void started.exited.then((code) => {
      if (stopped.has(started)) return;
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
  const startApi = async (i: number, more: Record<string, string> = {}): Promise<void> => {
    const started = watch(
      `api ${i}`,
      runEntryPoint('runtime/api.ts', { ...env, ...more, PORT: String(ports[i]) }),
    );
    apis[i] = started;
    await started.waitForOutput(/"msg":"api listening"/, 120_000);
  };
  const startWorker = async (i: number): Promise<void> => {
    const sink = smtp[i] as SmtpCapture;
    const started = watch(
      `worker ${i}`,
      runEntryPoint('runtime/worker.ts', { ...env, SMTP_URL: sink.url }),
    );
    workers[i] = started;
    await started.waitForOutput(/"msg":"worker running"/, 120_000);
  };
  const end = async (running: RunningProcess | undefined, signal?: NodeJS.Signals) => {
    if (!running) return;
    stopped.add(running);
    await running.stop(signal);
  };
  // All at once, as an orchestrator starts replicas: migrations and the namespace set-up take
  // turns under their advisory locks.
  undo.push(() => Promise.all([...apis, ...workers].map((running) => end(running))));
  const indexes = Array.from({ length: REPLICAS }, (_, i) => i);
  await Promise.all([...indexes.map((i) => startApi(i)), ...indexes.map((i) => startWorker(i))]);

  const clients = urls.map((base) => createClient(base));
  let turn = 0;
  const balancedRequest = async <T = any>(
    method: string,
    requestPath: string,
    options?: RequestOptions,
  ): Promise<HttpResponse<T>> => {
    let lastError: unknown;
    const first = turn++;
    // Each API twice at most, in turn from this request's own.
    for (let attempt = 0; attempt < 2 * REPLICAS; attempt += 1) {
      const client = clients[(first + attempt) % REPLICAS] as Client;
      try {
        return await client.request<T>(method, requestPath, options);
      } catch (error) {
        if (!isConnectionFailure(error)) throw error;
        lastError = error;
      }
    }
    throw lastError;
  };
  const balanced: Client = {
    ...(clients[0] as Client),
    request: balancedRequest,
    get: (p, o) => balancedRequest('GET', p, o),
    post: (p, o) => balancedRequest('POST', p, o),
    patch: (p, o) => balancedRequest('PATCH', p, o),
    put: (p, o) => balancedRequest('PUT', p, o),
    delete: (p, o) => balancedRequest('DELETE', p, o),
  };

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
    api: (i) => clients[i] as Client,
    balanced,
    smtp,
    messages: () => smtp.flatMap((sink) => sink.messages),
    dns,
    temporal,
    namespaceExistedBeforeStart,
    env,
    query,
    apiProcess: (i) => apis[i] as RunningProcess,
    workerProcess: (i) => workers[i] as RunningProcess,
    killApi: (i) => end(apis[i], 'SIGKILL'),
    startApi,
    stopApi: (i) => end(apis[i]),
    killWorker: (i) => end(workers[i], 'SIGKILL'),
    startWorker,
    stop: unwind,
  };
}

async function namespaceExists(address: string, namespace: string): Promise<boolean> {
  const connection = await Connection.connect({ address });
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return true;
  } catch (error) {
    // NOT_FOUND; anything else is a failure of the set-up, not an answer.
    if (isGrpcServiceError(error) && error.code === 5) return false;
    throw error;
  } finally {
    await connection.close();
  }
}
