import type { AppDeps } from '../api/deps.js';
import type { Orm } from '../db/orm.js';
import type { Sql } from '../db/sql/sql.js';
import {
  installationFeatures,
  type SmtpSubmissionInfo,
} from '../domain/installation/installation-features.pure.js';
import type {
  DnsResolver,
  FetchText,
  QueueNotifier,
  RateLimiter,
  WorkflowEngine,
} from '../domain/shared/ports.js';
import { createTrackWrites } from '../domain/events/track-writes.js';
import { createKeyLookups } from '../domain/projects/key-lookups.js';
import { createSendWrites } from '../domain/sending/send-writes.js';
import { createSendContexts } from '../domain/sending/send-contexts.js';
import type { Config } from './config.js';
import { createStripePayments } from './stripe-payments.js';
import type { Logger } from './logger.js';

/** The one place where configuration becomes what each domain needs (see AppDeps). */
export function createAppDeps({
  config,
  orm,
  sql,
  engine,
  dns,
  rateLimiter,
  queueNotifier,
  dispatchNotifier,
  webhookNotifier,
  fetchText,
  logger,
  smtpSubmission = null,
}: {
  config: Config;
  orm: Pick<Orm, 'em'>;
  sql: Sql;
  engine: WorkflowEngine;
  dns: DnsResolver;
  rateLimiter: RateLimiter;
  queueNotifier: QueueNotifier;
  /** Wakes the automation dispatcher of a queue (events recorded, commands written). */
  dispatchNotifier: QueueNotifier;
  /** Wakes the webhook lanes of a queue (a test event or a retry queued). */
  webhookNotifier: QueueNotifier;
  fetchText: FetchText;
  logger: Logger;
  /** SMTP submission as this API runs it; null when it is off. */
  smtpSubmission?: SmtpSubmissionInfo | null;
}): AppDeps {
  const { publicUrl, secrets } = config;
  return {
    orm,
    sql,
    engine,
    dns,
    rateLimiter,
    logger,
    http: {
      trustProxy: config.trustProxy,
      publicUrl,
      secureCookies: publicUrl.startsWith('https:'),
    },
    accounts: {
      engine,
      sessionSecret: secrets.JWT_SECRET,
      signupsDisabled: config.disableSignups,
    },
    domains: {
      encryptionKey: secrets.ENCRYPTION_KEY,
      spfInclude: config.spfInclude,
      dns,
      mxHost: config.inbound.mxHost,
      returnPathPrefix: config.inbound.returnPathPrefix,
    },
    // Mail accepted by this API is delivered by the workers of its task queue.
    sending: {
      sql,
      deliveryQueue: config.temporal.taskQueue,
      queueNotifier,
      writes: createSendWrites({ sql }),
      contexts: createSendContexts({ sql }),
    },
    // Campaigns sent through this API are delivered by the workers of its task queue.
    campaigns: {
      sql,
      engine,
      deliveryQueue: config.temporal.taskQueue,
      queueNotifier,
    },
    // Executions started through this API run on its task queue.
    automation: { sql, queue: config.temporal.taskQueue, dispatchNotifier },
    trackWrites: createTrackWrites({ sql }),
    keyLookup: createKeyLookups({ sql }),
    links: { sql, secret: secrets.ENCRYPTION_KEY, publicUrl },
    uploads: { sql, dataDir: config.dataDir, publicUrl },
    feedback: {
      sql,
      webhookSecret: secrets.EMAIL_WEBHOOK_SECRET,
      snsUrlPattern: config.snsUrlPattern,
      fetchText,
    },
    reports: { sql, dataDir: config.dataDir },
    billing: {
      sql,
      publicUrl,
      payments: config.stripe.secretKey
        ? createStripePayments({ ...config.stripe, secretKey: config.stripe.secretKey })
        : undefined,
    },
    features: installationFeatures({
      signupsDisabled: config.disableSignups,
      billingConfigured: Boolean(config.stripe.secretKey),
      smtpSubmission: smtpSubmission !== null,
    }),
    smtpSubmission,
    temporalUi: { url: config.temporal.uiUrl ?? null, namespace: config.temporal.namespace },
    // Test events and retries asked for through this API are sent by its queue's workers.
    webhooks: {
      sql,
      dns,
      allowPrivate: config.webhookAllowPrivate,
      encryptionKey: secrets.ENCRYPTION_KEY,
      queue: config.temporal.taskQueue,
      webhookNotifier,
    },
  };
}
