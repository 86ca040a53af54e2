import { createStripePayments } from './stripe-payments.js';
import pLimit from 'p-limit';
import { withAdvisoryLock, type Orm } from '../db/orm.js';
import { createSql, createSqlPool } from '../db/sql/sql.js';
import type { TemporalSettings } from '../temporal/connection-options.js';
import { TemporalWorkflowEngine } from '../temporal/client.js';
import { retryTransient } from '../temporal/retry-transient.js';
import { ensureSchedules } from '../temporal/schedules.js';
import { connectWorker, createWorker, ensureSearchAttributes } from '../temporal/worker.js';
import { createDnsResolver } from './dns-resolver.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import {
  AUTOMATION_PENDING_CHANNEL,
  EMAIL_QUEUED_CHANNEL,
  WEBHOOKS_PENDING_CHANNEL,
} from '../db/sql/wakeups.sql.js';
import { createPgQueueNotifier } from './pg-queue-notifier.js';
import { startPgChannelWakeups } from './pg-queue-wakeups.js';
import { createWebhookSender } from './webhook-sender.js';
import { createSmtpMailer } from './smtp/smtp-mailer.js';

const START_UP_RETRY_MS = 180_000;

function logStartUpRetry(logger: Logger) {
  return (error: unknown, delayMs: number): void =>
    logger.warn({ err: error, delayMs }, 'Temporal refused a start-up call; trying again');
}

export interface WorkerHandle {
  /** Resolves when the worker has stopped. */
  done: Promise<void>;
  close(): Promise<void>;
}

export async function startWorker({
  config,
  logger,
  orm,
  temporal,
  smtpUrl,
  databaseUrl,
}: {
  config: Config;
  logger: Logger;
  orm: Orm;
  temporal: TemporalSettings;
  smtpUrl: string;
  databaseUrl: string;
}): Promise<WorkerHandle> {
  // A Temporal server that just started, restarted or is overloaded refuses calls for a while;
  // a worker that gave up then would leave its queue undrained until someone restarted it.
  const startUp = { timeoutMs: START_UP_RETRY_MS, onRetry: logStartUpRetry(logger) };
  // Replicas starting at once take turns (ensureSearchAttributes says why).
  await withAdvisoryLock(orm, 'temporalSetup', () =>
    retryTransient(() => ensureSearchAttributes(temporal), startUp),
  );
  await retryTransient(
    () =>
      ensureSchedules({
        settings: temporal,
        domainRecheckEvery: config.domainRecheckInterval,
        emailDispatchEvery: config.emailDispatchInterval,
        segmentRecomputeEvery: config.segmentRecomputeInterval,
        billingReportEvery: config.billingReportInterval,
        eventCountsFoldEvery: config.eventCountsFoldInterval,
      }),
    startUp,
  );
  // One native connection for the worker and the engine (executions start eagerly on it).
  const connection = await connectWorker(temporal);
  const engine = TemporalWorkflowEngine.sharing(connection, temporal, {
    emailRetry: config.emailRetry,
  });
  const mailer = createSmtpMailer({ url: smtpUrl, poolSize: config.smtpPoolSize });
  const emailDelivery = { queue: temporal.taskQueue, ...config.emailDelivery };
  const automationDispatch = { queue: temporal.taskQueue, ...config.automationDispatch };
  // One LISTEN connection for the three kinds of work the API and other workers wake lanes for.
  const listener = await startPgChannelWakeups({
    url: databaseUrl,
    channels: [EMAIL_QUEUED_CHANNEL, AUTOMATION_PENDING_CHANNEL, WEBHOOKS_PENDING_CHANNEL],
    queue: temporal.taskQueue,
    logger,
  });
  const wakeups = listener.wakeups[EMAIL_QUEUED_CHANNEL];
  const dispatchWakeups = listener.wakeups[AUTOMATION_PENDING_CHANNEL];
  const webhookWakeups = listener.wakeups[WEBHOOKS_PENDING_CHANNEL];
  // Mail that workflows' SEND_EMAIL steps queue wakes the delivery lanes like mail the API queues.
  const emailNotifier = createPgQueueNotifier({
    url: databaseUrl,
    channel: EMAIL_QUEUED_CHANNEL,
    logger,
  });
  const dns = createDnsResolver({ servers: config.dnsServers, timeoutMs: config.dnsTimeoutMs });
  // Lanes share the process's delivery slots: two per SMTP connection, so a connection has the
  // next message while the previous one's SENT commits. Each slot holds a connection of the
  // delivery pool during its SMTP transaction. Delivery commits asynchronously: waiting for the
  // disk after every SENT halves throughput, and the worst a PostgreSQL crash can do to a SENT
  // mark is lose it, so that email is sent again (at least once, as after a worker crash).
  // Accepting mail (the API) always waits for the disk.
  const slots = config.smtpPoolSize * 2;
  const deliverySlots = pLimit(slots);
  const onIdleError = (error: Error): void =>
    logger.warn({ err: error }, 'an idle database connection failed');
  // Events this worker records (email.*, segment entries and exits, subscription changes) are
  // dispatched by its queue's automation dispatcher.
  const taskQueue = temporal.taskQueue;
  const pool = createSqlPool({
    url: databaseUrl,
    max: config.databasePoolMax,
    taskQueue,
    onIdleError,
  });
  const deliveryPool = createSqlPool({
    url: databaseUrl,
    max: slots + config.emailDelivery.lanes + 1,
    asynchronousCommit: true,
    taskQueue,
    onIdleError,
  });
  const worker = await createWorker({
    connection,
    settings: temporal,
    workflowBundlePath: config.temporal.workflowBundlePath,
    deps: {
      orm,
      sql: createSql(pool),
      deliverySql: createSql(deliveryPool),
      mailer,
      publicUrl: config.publicUrl,
      systemEmailFrom: config.systemEmailFrom,
      importBatchSize: config.importBatchSize,
      dns,
      spfInclude: config.spfInclude,
      mxHost: config.inbound.mxHost,
      returnPathPrefix: config.inbound.returnPathPrefix,
      encryptionKey: config.secrets.ENCRYPTION_KEY,
      engine,
      wakeups,
      deliverySlots: (task) => deliverySlots(task),
      emailDelivery,
      sendRatePerSecond: config.sendRatePerSecond,
      payments: config.stripe.secretKey
        ? createStripePayments({
            ...config.stripe,
            secretKey: config.stripe.secretKey,
            meterEvent: config.stripeMeterEvent,
          })
        : undefined,
      segmentComputeBatchSize: config.segmentComputeBatchSize,
      campaignBatchSize: config.campaignBatchSize,
      campaignWatchSeconds: config.campaignWatchSeconds,
      emailNotifier,
      dispatchWakeups,
      webhookWakeups,
      automationDispatch,
      sendWebhook: createWebhookSender({ dns, allowPrivate: config.webhookAllowPrivate }),
      sendEventWebhook: createWebhookSender({
        dns,
        allowPrivate: config.webhookAllowPrivate,
        keepAlive: true,
      }),
      webhookRetry: config.webhookRetry,
      webhookPollMs: config.webhookPollMs,
    },
  });
  await retryTransient(
    () => engine.ensureEmailDelivery(emailDelivery, { configure: true }),
    startUp,
  );
  await retryTransient(
    () => engine.ensureAutomationDispatch(automationDispatch, { configure: true }),
    startUp,
  );
  const done = worker.run().finally(async () => {
    mailer.close();
    await listener.close();
    await emailNotifier.close();
    await connection.close();
    await pool.end();
    await deliveryPool.end();
    await engine.close();
  });
  done.catch((error: unknown) => logger.error({ err: error }, 'worker stopped with an error'));
  logger.info({ taskQueue: temporal.taskQueue }, 'worker running');
  return {
    done,
    close: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done.catch(() => undefined);
    },
  };
}
