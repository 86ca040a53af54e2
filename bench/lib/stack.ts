import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openOrm } from '../../db/orm.js';
import { freePort, waitForPort } from '../../runtime/embedded/free-port.js';
import { startEmbeddedPostgres } from '../../runtime/embedded/postgres.js';
import { startSmtpSink } from '../../runtime/embedded/smtp-sink.js';
import { findOrBuildTemporalCli } from '../../runtime/embedded/temporal-cli.js';
import { startTemporalDevServer } from '../../runtime/embedded/temporal-server.js';
import { buildServerBundle } from '../../runtime/server-bundle.js';
import { runEntryPoint, type RunningProcess } from '../../test/helpers/processes.js';

export interface BenchStack {
  apiUrl: string;
  smtpUrl: string;
  databaseUrl: string;
  env: Record<string, string>;
  apiPid: number;
  temporalPid: number;
  /** The postmaster's, when this stack started it. */
  postgresPid?: number;
  startWorker(): Promise<RunningProcess>;
  stop(): Promise<void>;
}

/** The full stack as production runs it: PostgreSQL, Temporal, the API and worker processes. */
export async function startBenchStack(
  log: (line: string) => void,
  { onMessage, env: extraEnv = {} }: { onMessage?: () => void; env?: Record<string, string> } = {},
): Promise<BenchStack> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'mailwright-bench-'));
  await chmod(dataDir, 0o755);
  const stops: (() => Promise<void>)[] = [
    async () => rm(dataDir, { recursive: true, force: true }),
  ];
  // BENCH_PG_STATEMENTS=1 loads pg_stat_statements, so a bench can print where PostgreSQL's time went.
  const statements = process.env.BENCH_PG_STATEMENTS === '1';
  const postgres = await startEmbeddedPostgres({
    dataDir,
    log,
    settings: [
      ...(statements ? ['shared_preload_libraries=pg_stat_statements'] : []),
      ...(process.env.BENCH_PG_SETTINGS?.split(' ').filter(Boolean) ?? []),
    ],
  });
  stops.push(postgres.stop);
  const orm = await openOrm({ url: postgres.url });
  await migrate(orm);
  await orm.close();
  const cli = await findOrBuildTemporalCli({ configured: process.env.TEMPORAL_CLI, log });
  const temporal = await startTemporalDevServer({ cli, dataDir, headless: true, log });
  stops.push(temporal.stop);
  const smtp = await startSmtpSink({ onMessage });
  stops.push(smtp.stop);

  const port = await freePort();
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: postgres.url,
    TEMPORAL_ADDRESS: temporal.address,
    SMTP_URL: smtp.url,
    RATE_LIMIT_PER_MINUTE: '100000000',
    // The benches measure throughput against a floor; the per-project send throttle would measure
    // itself instead (send-throttle.test.ts tests it).
    SEND_RATE_PER_SECOND: '1000000',
    JWT_SECRET: randomBytes(32).toString('base64url'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    EMAIL_WEBHOOK_SECRET: randomBytes(32).toString('base64url'),
    ...extraEnv,
    // BENCH_ENV="EMAIL_DELIVERY_LANES=3 SMTP_POOL_SIZE=10": settings to try without editing a bench.
    ...Object.fromEntries(
      (process.env.BENCH_ENV?.split(' ').filter(Boolean) ?? []).map((pair) => {
        const at = pair.indexOf('=');
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
    ),
  };
  // The API and the worker run from the server bundle, as `npm run api` / `npm run worker` do.
  await buildServerBundle();
  // BENCH_API_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the API process;
  // BENCH_WORKER_NODE_ARGS the worker.
  const apiArgs = process.env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const api = runEntryPoint('runtime/api.ts', env, apiArgs);
  stops.push(() => api.stop());
  await api
    .waitForOutput(/"msg":"api listening"|api listening/, 90_000)
    .catch(async () => waitForPort(port));
  const workers: RunningProcess[] = [];
  stops.push(async () => {
    for (const w of workers) await w.stop();
  });
  return {
    apiUrl: env.PUBLIC_URL as string,
    smtpUrl: smtp.url,
    databaseUrl: postgres.url,
    env,
    apiPid: api.child.pid as number,
    temporalPid: temporal.pid,
    // The postmaster itself (as root it runs under another user, started through a wrapper).
    postgresPid: await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').then(
      (text) => Number(text.split('\n')[0]),
      () => postgres.pid,
    ),
    startWorker: async () => {
      const workerArgs = process.env.BENCH_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
      const worker = runEntryPoint('runtime/worker.ts', env, workerArgs);
      workers.push(worker);
      await worker.waitForOutput(/worker running/, 120_000);
      return worker;
    },
    stop: async () => {
      for (const stop of stops.reverse()) await stop().catch(() => undefined);
    },
  };
}

export async function json(
  url: string,
  init: RequestInit & { body?: string } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, {
    ...init,
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** A user and a project through the public API; answers the project's id and keys. */
export async function benchProject(
  apiUrl: string,
): Promise<{ id: string; publicKey: string; secretKey: string }> {
  const signup = await json(`${apiUrl}/auth/signup`, {
    method: 'POST',
    body: JSON.stringify({ email: `bench-${Date.now()}@bench.test`, password: 'bench password' }),
  });
  const cookie = (signup.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
  const project = await json(`${apiUrl}/users/@me/projects`, {
    method: 'POST',
    headers: { Cookie: cookie },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (project.status !== 201)
    throw new Error(`project: ${project.status} ${JSON.stringify(project.body)}`);
  return project.body;
}

export function formatRow(cells: (string | number)[], widths: number[]): string {
  return cells.map((c, i) => String(c).padStart(widths[i] ?? 10)).join('  ');
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}
