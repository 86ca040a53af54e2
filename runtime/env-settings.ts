import { z } from 'zod';
import { MESSAGE_BYTES_MAX } from '../domain/sending/send-limits.pure.js';

// The settings read from the environment, each with its bounds and default; config.ts turns them
// into the Config the processes use. A process that must act before any thread starts (the
// worker's priority) reads them here without the rest of loadConfig.

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

// A port that may be left empty (as .env.example lists it) to mean unset.
const optionalPort = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.coerce.number().int().min(1).max(65535).optional(),
);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  // Behind a reverse proxy: take the client address from X-Forwarded-For (for per-address limits).
  TRUST_PROXY: bool,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: optionalString,
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  TEMPORAL_ADDRESS: optionalString,
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('mailwright'),
  TEMPORAL_CLI: optionalString,
  TEMPORAL_UI_PORT: z.coerce.number().int().min(0).max(65535).default(8233),
  // Where operators open the Temporal UI (the dashboard links job runs there). `npm start` sets it
  // to its dev server's UI; unset otherwise, and the dashboard shows no link.
  TEMPORAL_UI_URL: optionalString.pipe(z.url().optional()),
  TEMPORAL_API_KEY: optionalString,
  TEMPORAL_TLS: bool,
  WORKFLOW_BUNDLE_PATH: optionalString,
  SMTP_URL: optionalString,
  SYSTEM_EMAIL_FROM: optionalString,
  DNS_SERVERS: optionalString,
  JWT_SECRET: optionalString,
  ENCRYPTION_KEY: optionalString,
  EMAIL_WEBHOOK_SECRET: optionalString,
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PRICE_ID: optionalString,
  STRIPE_API_BASE: optionalString,
  DISABLE_SIGNUPS: bool,
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1000),
  SEND_RATE_PER_SECOND: z.coerce.number().positive().default(50),
  IMPORT_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(5000),
  WEBHOOK_ALLOW_PRIVATE: bool,
  // Event webhooks: the waits between attempts of a delivery (the last repeats), how long a
  // delivery is tried, and how long an endpoint fails before it is disabled.
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .regex(/^[1-9][0-9]*(s|m|h)(,[1-9][0-9]*(s|m|h))*$/, 'durations such as 5s,5m,30m,2h')
    .default('5s,5m,30m,2h,5h,10h'),
  WEBHOOK_RETRY_WINDOW: z
    .string()
    .regex(/^[1-9][0-9]*(s|m|h)$/, 'a whole number of s, m or h, such as 72h')
    .default('72h'),
  WEBHOOK_DISABLE_AFTER: z
    .string()
    .regex(/^[1-9][0-9]*(s|m|h)$/, 'a whole number of s, m or h, such as 120h')
    .default('120h'),
  // How often an idle webhook lane looks for deliveries that came due (retries); new ones wake it.
  WEBHOOK_POLL_INTERVAL: z
    .string()
    .regex(/^[1-9][0-9]*(s|m|h)$/, 'a whole number of s, m or h, such as 1s')
    .default('1s'),
  DOMAIN_RECHECK_INTERVAL: z
    .string()
    .regex(/^[1-9][0-9]*(s|m|h)$/, 'a whole number of s, m or h, such as 5m')
    .default('5m'),
  EMAIL_DISPATCH_INTERVAL: z
    .string()
    .regex(/^[1-9][0-9]*(s|m|h)$/, 'a whole number of s, m or h, such as 30s')
    .default('30s'),
  // How often tracked segments are recomputed (their entry and exit events fire).
  SEGMENT_RECOMPUTE_INTERVAL: z
    .string()
    .regex(/^[1-9][0-9]*(s|m|h)$/, 'a whole number of s, m or h, such as 5m')
    .default('5m'),
  // How often the kept hourly email event counts are folded to one row per finished hour.
  EVENT_COUNTS_FOLD_INTERVAL: z
    .string()
    .regex(/^[1-9][0-9]*(s|m|h)$/, 'a whole number of s, m or h, such as 1h')
    .default('1h'),
  // The inbound SMTP receiver: off unless a port is set (`npm start` turns it on at 2525).
  INBOUND_SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // The host the domains' MX records should name (default: PUBLIC_URL's host, when inbound is on).
  INBOUND_MX_HOST: optionalString,
  // The first label of the return-path host (`<prefix>.<domain>`) that bounces and complaints come back to.
  RETURN_PATH_PREFIX: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'one lower-case DNS label, such as rp')
    .default('rp'),
  INBOUND_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  // SMTP submission (apps that only speak SMTP send through us): a port with STARTTLS (required
  // before AUTH) and one with implicit TLS, each off unless set (`npm start` takes 587 and 465
  // when free); the certificate and key files they present; the host clients are told to use
  // (default: PUBLIC_URL's host); the largest message (at most /v1/send's 40 MB).
  SMTP_SUBMISSION_PORT: optionalPort,
  // Set by `npm start` for the SMTP ports it picked because they looked free (inbound 2525,
  // submission 587 and 465): one taken by the time the API listens (another program got there
  // first) is skipped with a warning instead of failing the start. Ports an operator sets are
  // never optional.
  INBOUND_SMTP_PORT_OPTIONAL: bool,
  SMTP_SUBMISSION_PORTS_OPTIONAL: bool,
  SMTP_SUBMISSION_TLS_PORT: optionalPort,
  SMTP_TLS_CERT: optionalString,
  SMTP_TLS_KEY: optionalString,
  SMTP_SUBMISSION_HOST: optionalString,
  SMTP_SUBMISSION_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(MESSAGE_BYTES_MAX)
    .default(MESSAGE_BYTES_MAX),
  // How often usage is reported to Stripe as meter events (with billing on).
  BILLING_REPORT_INTERVAL: z
    .string()
    .regex(/^[1-9][0-9]*(s|m|h)$/, 'a whole number of s, m or h, such as 1h')
    .default('1h'),
  // The meter event name usage is reported under (one event per project, category and hour).
  STRIPE_METER_EVENT: z.string().min(1).max(100).default('mailwright_emails'),
  // Contacts per transaction of a segment compute (its progress is committed per batch).
  SEGMENT_COMPUTE_BATCH_SIZE: z.coerce.number().int().min(100).max(100_000).default(10_000),
  // Recipients a campaign's send queues per statement (each batch commits on its own).
  CAMPAIGN_BATCH_SIZE: z.coerce.number().int().min(10).max(10_000).default(1000),
  // How long one watch of a sending campaign runs; its run continues as new once its history
  // holds 2,000 events (about 330 watches: 55 hours at the default).
  CAMPAIGN_WATCH_SECONDS: z.coerce.number().min(0.01).max(3600).default(600),
  // Delivery lanes of the email-delivery loop, spread over the workers of the task queue.
  EMAIL_DELIVERY_LANES: z.coerce.number().int().min(1).max(32).default(2),
  EMAIL_DELIVERY_LANE_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  // An email refused for now (4xx, timeout, dropped connection) is tried again with backoff
  // (1 s, doubling, at most EMAIL_RETRY_MAX_INTERVAL apart) for EMAIL_RETRY_WINDOW; then it is
  // FAILED and counts as a soft bounce.
  EMAIL_RETRY_WINDOW: z
    .string()
    .regex(/^[1-9][0-9]*(s|m|h)$/, 'a whole number of s, m or h, such as 24h')
    .default('24h'),
  EMAIL_RETRY_MAX_INTERVAL: z
    .string()
    .regex(/^[1-9][0-9]*(s|m|h)$/, 'a whole number of s, m or h, such as 10m')
    .default('10m'),
  // Lanes of the automation dispatch loop (events to executions, and their Temporal commands).
  AUTOMATION_DISPATCH_LANES: z.coerce.number().int().min(1).max(32).default(2),
  AUTOMATION_DISPATCH_LANE_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  // The worker's CPU priority (nice, 0 to 19; 0: as started): below the API, so that on a shared
  // machine requests are answered first while mail is sent (runtime/process-priority.ts).
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  // SMTP connections per worker process; also how many emails a worker has in flight at once.
  SMTP_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(5),
  // The host customers' SPF records must include (`include:<this>`).
  SPF_INCLUDE: optionalString,
  DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
  // Where SNS signing certificates and subscription confirmations may be fetched from.
  SNS_URL_PATTERN: z.string().default('^https://sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?/'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

export function parseEnv(env: NodeJS.ProcessEnv): Env {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
