import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { WebhookRetrySchedule } from '../domain/webhooks/retry-schedule.pure.js';
import { ConfigError, parseEnv, type Env } from './env-settings.js';

const UNIT_SECONDS = { s: 1, m: 60, h: 3600 } as const;
/** `90s`, `5m`, `2h` in seconds (the schema let only those through). */
const secondsOf = (duration: string): number =>
  Number(duration.slice(0, -1)) * UNIT_SECONDS[duration.slice(-1) as keyof typeof UNIT_SECONDS];

const SECRET_NAMES = ['JWT_SECRET', 'ENCRYPTION_KEY', 'EMAIL_WEBHOOK_SECRET'] as const;
type SecretName = (typeof SECRET_NAMES)[number];

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  trustProxy: boolean;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  databasePoolMax: number;
  temporal: {
    address?: string;
    namespace: string;
    taskQueue: string;
    cli?: string;
    uiPort: number;
    /** The Temporal UI's address, without a trailing slash; undefined when unknown. */
    uiUrl?: string;
    apiKey?: string;
    tls: boolean;
    workflowBundlePath?: string;
  };
  smtpUrl?: string;
  systemEmailFrom: string;
  dnsServers: string[];
  secrets: Record<SecretName, string>;
  stripe: { secretKey?: string; webhookSecret?: string; priceId?: string; apiBase?: string };
  disableSignups: boolean;
  rateLimitPerMinute: number;
  sendRatePerSecond: number;
  importBatchSize: number;
  webhookAllowPrivate: boolean;
  webhookRetry: WebhookRetrySchedule;
  /** How often an idle webhook lane looks for deliveries that came due. */
  webhookPollMs: number;
  domainRecheckInterval: string;
  emailDispatchInterval: string;
  segmentRecomputeInterval: string;
  billingReportInterval: string;
  eventCountsFoldInterval: string;
  /** `portOptional`: the port was picked by `npm start`; taken since, inbound mail is off. */
  inbound: {
    port?: number;
    portOptional: boolean;
    maxBytes: number;
    mxHost?: string;
    returnPathPrefix: string;
  };
  /** SMTP submission: on when a port is set, then with its certificate files. */
  submission: {
    port?: number;
    tlsPort?: number;
    /** The ports were picked by `npm start`: one taken since is off. */
    portsOptional: boolean;
    tls?: { certPath: string; keyPath: string };
    host: string;
    maxBytes: number;
  };
  stripeMeterEvent: string;
  segmentComputeBatchSize: number;
  campaignBatchSize: number;
  campaignWatchSeconds: number;
  emailDelivery: { lanes: number; laneSeconds: number };
  /** How long, and how far apart at most, an email refused for now is tried again. */
  emailRetry: { windowSeconds: number; maxIntervalSeconds: number };
  automationDispatch: { lanes: number; laneSeconds: number };
  smtpPoolSize: number;
  spfInclude: string;
  dnsTimeoutMs: number;
  snsUrlPattern: RegExp;
  logLevel: Env['LOG_LEVEL'];
}

/**
 * Secrets missing from the environment are refused in production; elsewhere they are generated
 * once and kept under DATA_DIR so that every process sharing that directory agrees on them.
 */
async function resolveSecrets(env: Env, dataDir: string): Promise<Record<SecretName, string>> {
  const missing = SECRET_NAMES.filter((name) => !env[name]);
  if (missing.length > 0 && env.NODE_ENV === 'production') {
    throw new ConfigError(`Missing required secrets in production: ${missing.join(', ')}`);
  }
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Record<SecretName, string>> = {};
  if (missing.length > 0) {
    stored = await readFile(file, 'utf8')
      .then((text) => JSON.parse(text) as Partial<Record<SecretName, string>>)
      .catch(() => ({}));
    const absent = missing.filter((name) => !stored[name]);
    if (absent.length > 0) {
      for (const name of absent) stored[name] = randomBytes(32).toString('base64url');
      await mkdir(dataDir, { recursive: true });
      await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    }
  }
  const pick = (name: SecretName): string => env[name] ?? (stored[name] as string);
  return {
    JWT_SECRET: pick('JWT_SECRET'),
    ENCRYPTION_KEY: pick('ENCRYPTION_KEY'),
    EMAIL_WEBHOOK_SECRET: pick('EMAIL_WEBHOOK_SECRET'),
  };
}

/**
 * SMTP submission's settings. A port set without the certificate files is refused where the
 * servers start (runtime/api-process.ts): `npm start` makes a certificate when none is set.
 */
function submissionConfig(env: Env, publicUrl: string): Config['submission'] {
  return {
    port: env.SMTP_SUBMISSION_PORT,
    tlsPort: env.SMTP_SUBMISSION_TLS_PORT,
    portsOptional: env.SMTP_SUBMISSION_PORTS_OPTIONAL,
    tls:
      env.SMTP_TLS_CERT && env.SMTP_TLS_KEY
        ? { certPath: path.resolve(env.SMTP_TLS_CERT), keyPath: path.resolve(env.SMTP_TLS_KEY) }
        : undefined,
    host: env.SMTP_SUBMISSION_HOST ?? new URL(publicUrl).hostname,
    maxBytes: env.SMTP_SUBMISSION_MAX_BYTES,
  };
}

export async function loadConfig(source: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const env = parseEnv(source);
  const dataDir = path.resolve(env.DATA_DIR);
  const secrets = await resolveSecrets(env, dataDir);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    trustProxy: env.TRUST_PROXY,
    port: env.PORT,
    publicUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    databasePoolMax: env.DATABASE_POOL_MAX,
    temporal: {
      address: env.TEMPORAL_ADDRESS,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: env.TEMPORAL_TASK_QUEUE,
      cli: env.TEMPORAL_CLI,
      uiPort: env.TEMPORAL_UI_PORT,
      uiUrl: env.TEMPORAL_UI_URL?.replace(/\/+$/, ''),
      apiKey: env.TEMPORAL_API_KEY,
      tls: env.TEMPORAL_TLS,
      workflowBundlePath: env.WORKFLOW_BUNDLE_PATH,
    },
    smtpUrl: env.SMTP_URL,
    systemEmailFrom: env.SYSTEM_EMAIL_FROM ?? `no-reply@${new URL(publicUrl).hostname}`,
    dnsServers: env.DNS_SERVERS ? env.DNS_SERVERS.split(',').map((s) => s.trim()) : [],
    secrets,
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      priceId: env.STRIPE_PRICE_ID,
      apiBase: env.STRIPE_API_BASE,
    },
    disableSignups: env.DISABLE_SIGNUPS,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    sendRatePerSecond: env.SEND_RATE_PER_SECOND,
    importBatchSize: env.IMPORT_BATCH_SIZE,
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
    webhookRetry: {
      delaysSeconds: env.WEBHOOK_RETRY_DELAYS.split(',').map(secondsOf),
      windowSeconds: secondsOf(env.WEBHOOK_RETRY_WINDOW),
      disableAfterSeconds: secondsOf(env.WEBHOOK_DISABLE_AFTER),
    },
    webhookPollMs: secondsOf(env.WEBHOOK_POLL_INTERVAL) * 1000,
    domainRecheckInterval: env.DOMAIN_RECHECK_INTERVAL,
    emailDispatchInterval: env.EMAIL_DISPATCH_INTERVAL,
    segmentRecomputeInterval: env.SEGMENT_RECOMPUTE_INTERVAL,
    billingReportInterval: env.BILLING_REPORT_INTERVAL,
    eventCountsFoldInterval: env.EVENT_COUNTS_FOLD_INTERVAL,
    inbound: {
      port: env.INBOUND_SMTP_PORT,
      portOptional: env.INBOUND_SMTP_PORT_OPTIONAL,
      maxBytes: env.INBOUND_MAX_BYTES,
      mxHost:
        env.INBOUND_MX_HOST ??
        (env.INBOUND_SMTP_PORT === undefined ? undefined : new URL(publicUrl).hostname),
      returnPathPrefix: env.RETURN_PATH_PREFIX,
    },
    submission: submissionConfig(env, publicUrl),
    stripeMeterEvent: env.STRIPE_METER_EVENT,
    segmentComputeBatchSize: env.SEGMENT_COMPUTE_BATCH_SIZE,
    campaignBatchSize: env.CAMPAIGN_BATCH_SIZE,
    campaignWatchSeconds: env.CAMPAIGN_WATCH_SECONDS,
    emailDelivery: {
      lanes: env.EMAIL_DELIVERY_LANES,
      laneSeconds: env.EMAIL_DELIVERY_LANE_SECONDS,
    },
    emailRetry: {
      windowSeconds: secondsOf(env.EMAIL_RETRY_WINDOW),
      maxIntervalSeconds: secondsOf(env.EMAIL_RETRY_MAX_INTERVAL),
    },
    automationDispatch: {
      lanes: env.AUTOMATION_DISPATCH_LANES,
      laneSeconds: env.AUTOMATION_DISPATCH_LANE_SECONDS,
    },
    smtpPoolSize: env.SMTP_POOL_SIZE,
    spfInclude: env.SPF_INCLUDE ?? `_spf.${new URL(publicUrl).hostname}`,
    dnsTimeoutMs: env.DNS_TIMEOUT_MS,
    snsUrlPattern: new RegExp(env.SNS_URL_PATTERN),
    logLevel: env.LOG_LEVEL,
  };
}
