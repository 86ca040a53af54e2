import { randomBytes, randomUUID } from 'node:crypto';
import type { SharedStack } from './global-setup.js';
import { freePort } from '../../runtime/embedded/free-port.js';
import { createClient, type Client } from './http.js';
import { runEntryPoint, type RunningProcess } from './processes.js';
import { startSmtpCapture, type SmtpCapture } from './smtp-capture.js';

function clientAddress(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

export interface TestStack {
  api: Client;
  smtp: SmtpCapture;
  env: Record<string, string>;
  apiProcess: RunningProcess;
  worker: () => RunningProcess | undefined;
  startWorker: () => Promise<RunningProcess>;
  stopWorker: (signal?: NodeJS.Signals) => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * The API and the worker of one test file (or one browser test worker), started as child processes from the entry points
 * users run, against the run's PostgreSQL and Temporal, with an SMTP server of the file's own.
 * Each file gets its own task queue, so its workflows never reach another file's worker.
 */
export async function launchStack({
  shared,
  env: extra = {},
}: {
  shared: SharedStack;
  env?: Record<string, string>;
}): Promise<TestStack> {
  const smtp = await startSmtpCapture();
  const envFor = (port: number): Record<string, string> => ({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    TRUST_PROXY: 'true',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: shared.dataDir,
    DATABASE_URL: shared.databaseUrl,
    DATABASE_POOL_MAX: '5',
    TEMPORAL_ADDRESS: shared.temporalAddress,
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    WORKFLOW_BUNDLE_PATH: shared.workflowBundlePath,
    SMTP_URL: smtp.url,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    EMAIL_WEBHOOK_SECRET: randomBytes(32).toString('base64url'),
    // A resolver that cannot be reached: lookups fail without changing any domain's status.
    // Files that verify domains bring a DNS server of their own.
    DNS_SERVERS: '127.0.0.1:9',
    DNS_TIMEOUT_MS: '500',
    // The schedule that restarts a terminated delivery loop; the worker starts the loop itself,
    // so only the file that keeps the schedule's history runs it often.
    EMAIL_DISPATCH_INTERVAL: '1h',
    // Each file's worker would re-check every domain in the shared database against its own
    // resolver, and files with DNS servers of their own would flag each other's domains. Only the
    // file that tests the re-check runs it (domains.test.ts, whose DNS server refuses names
    // outside its own zone); interval schedules fire on multiples of the interval since 1970, so
    // a year's interval never fires during a run.
    DOMAIN_RECHECK_INTERVAL: '8760h',
    // Every file's worker would recompute every tracked segment in the shared database; the file
    // that tests the schedule triggers its own once.
    SEGMENT_RECOMPUTE_INTERVAL: '8760h',
    // Usage reports to Stripe: the billing file triggers its own.
    BILLING_REPORT_INTERVAL: '8760h',
    EVENT_COUNTS_FOLD_INTERVAL: '8760h',
    // The worker at the test runner's priority: the tests' own load and checks compete with it for
    // the CPU and wait on it (supervisor.test.ts checks the default, below the API).
    WORKER_NICE: '0',
    ...extra,
  });

  let env: Record<string, string> = {};
  let apiProcess: RunningProcess | undefined;
  let worker: RunningProcess | undefined;
  const startWorker = async (): Promise<RunningProcess> => {
    const started = runEntryPoint('runtime/worker.ts', env);
    worker = started;
    await started.waitForOutput(/"msg":"worker running"/, 90_000);
    return started;
  };
  // A port found free can be taken before the API listens on it (by the local end of another
  // process's outgoing connection): then the stack starts again on another port.
  for (let attempt = 1; ; attempt += 1) {
    env = envFor(await freePort());
    const api = runEntryPoint('runtime/api.ts', env);
    apiProcess = api;
    try {
      await Promise.all([api.waitForOutput(/"msg":"api listening"/, 90_000), startWorker()]);
      break;
    } catch (error) {
      await Promise.all([api.stop(), worker?.stop()]);
      const portTaken = error instanceof Error && error.message.includes('EADDRINUSE');
      if (!portTaken || attempt === 3) throw error;
    }
  }
  const startedApi = apiProcess;

  return {
    // Per-address rate-limit buckets live in the shared database; a client address of the stack's
    // own keeps other test files' sign-ups out of this file's budget.
    api: createClient(env.PUBLIC_URL as string, {
      headers: { 'X-Forwarded-For': clientAddress() },
    }),
    smtp,
    env,
    apiProcess: startedApi,
    worker: () => worker,
    startWorker,
    stopWorker: async (signal) => {
      await worker?.stop(signal);
      worker = undefined;
    },
    stop: async () => {
      await Promise.all([startedApi.stop(), worker?.stop()]);
      await smtp.stop();
    },
  };
}
