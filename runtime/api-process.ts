import type { Server } from 'node:http';
import { createApp } from '../api/app.js';
import { answerClientError } from '../api/http/client-error.js';
import type { Orm } from '../db/orm.js';
import { createSql, createSqlPool } from '../db/sql/sql.js';
import { createAppDeps } from './app-deps.js';
import {
  AUTOMATION_PENDING_CHANNEL,
  EMAIL_QUEUED_CHANNEL,
  WEBHOOKS_PENDING_CHANNEL,
} from '../db/sql/wakeups.sql.js';
import { createPgQueueNotifiers } from './pg-queue-notifier.js';
import { TemporalWorkflowEngine } from '../temporal/client.js';
import type { TemporalSettings } from '../temporal/connection-options.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { createDnsResolver } from './dns-resolver.js';
import { createTextFetcher } from './fetch-text.js';
import { startInboundSmtp } from './inbound-smtp.js';
import { createPgRateLimiter } from './pg-rate-limiter.js';
import { ConfigError } from './env-settings.js';
import { startSubmissionSmtp } from './submission-smtp.js';
import { readSubmissionTls, type SubmissionTls } from './submission-tls.js';
import { listenUnlessTaken } from './optional-listen.js';
import type { AppDeps } from '../api/deps.js';

export interface ApiHandle {
  server: Server;
  port: number;
  /** The inbound SMTP receiver's port, when it runs. */
  inboundPort?: number;
  /** SMTP submission's ports (STARTTLS, implicit TLS), when they listen. */
  submissionPort?: number;
  submissionTlsPort?: number;
  close(): Promise<void>;
}

export async function startApi({
  config,
  logger,
  orm,
  databaseUrl,
  temporal,
  inboundPort = config.inbound.port,
}: {
  config: Config;
  logger: Logger;
  orm: Orm;
  databaseUrl: string;
  temporal: TemporalSettings;
  /** Where the inbound SMTP receiver listens; none without one. */
  inboundPort?: number;
}): Promise<ApiHandle> {
  // SMTP submission is on when a port is set, and then needs its certificate.
  const { submission } = config;
  const submissionOn = submission.port !== undefined || submission.tlsPort !== undefined;
  if (submissionOn && !submission.tls) {
    throw new ConfigError(
      'SMTP submission (SMTP_SUBMISSION_PORT / SMTP_SUBMISSION_TLS_PORT) needs SMTP_TLS_CERT and SMTP_TLS_KEY (PEM files)',
    );
  }
  const submissionTls: SubmissionTls | undefined =
    submissionOn && submission.tls ? await readSubmissionTls(submission.tls) : undefined;
  const engine = TemporalWorkflowEngine.create(temporal);
  // One pg pool for hand-written SQL and the rate limiter; MikroORM keeps its own for entities.
  // Events this API records are dispatched by its task queue's automation dispatcher.
  const pool = createSqlPool({
    url: databaseUrl,
    max: config.databasePoolMax,
    taskQueue: config.temporal.taskQueue,
    onIdleError: (error) => logger.warn({ err: error }, 'an idle database connection failed'),
  });
  const rateLimiter = createPgRateLimiter({ pool, perMinute: config.rateLimitPerMinute });
  // One connection wakes the lanes of every kind: mail queued, events recorded or commands
  // written (every tracked event asks, whether or not it entered the outbox, and each notice
  // costs both dispatch lanes a run: 50 ms between notices keeps that near 20 runs a second under
  // load, for at most 50 ms more before a workflow starts), test events and retries queued.
  const wake = createPgQueueNotifiers({
    url: databaseUrl,
    channels: {
      [EMAIL_QUEUED_CHANNEL]: { coalesceMs: 10 },
      [AUTOMATION_PENDING_CHANNEL]: { coalesceMs: 50 },
      [WEBHOOKS_PENDING_CHANNEL]: { coalesceMs: 10 },
    },
    logger,
  });
  const queueNotifier = wake.notifiers[EMAIL_QUEUED_CHANNEL];
  const dispatchNotifier = wake.notifiers[AUTOMATION_PENDING_CHANNEL];
  const webhookNotifier = wake.notifiers[WEBHOOKS_PENDING_CHANNEL];
  const tentative = createAppDeps({
    config,
    orm,
    sql: createSql(pool),
    engine,
    dns: createDnsResolver({ servers: config.dnsServers, timeoutMs: config.dnsTimeoutMs }),
    rateLimiter,
    queueNotifier,
    dispatchNotifier,
    webhookNotifier,
    fetchText: createTextFetcher(),
    logger,
    smtpSubmission: null,
  });
  // The SMTP servers listen first, so /config tells what listens: a port `npm start` picked
  // (INBOUND_SMTP_PORT_OPTIONAL, SMTP_SUBMISSION_PORTS_OPTIONAL) that another program took
  // meanwhile is off, not a failed start.
  const inbound =
    inboundPort === undefined
      ? undefined
      : await listenUnlessTaken({
          optional: config.inbound.portOptional,
          what: 'inbound mail',
          port: inboundPort,
          logger,
          listen: () =>
            startInboundSmtp({
              deps: {
                sql: createSql(pool),
                dataDir: config.dataDir,
                dispatch: { queue: config.temporal.taskQueue, dispatchNotifier },
                secret: config.secrets.ENCRYPTION_KEY,
                returnPathPrefix: config.inbound.returnPathPrefix,
              },
              host: config.host,
              port: inboundPort,
              maxBytes: config.inbound.maxBytes,
              logger,
            }),
        });
  if (inbound) logger.info({ port: inbound.port }, 'inbound smtp listening');
  const submissionSmtp = submissionTls
    ? await startSubmissionSmtp({
        deps: { sql: tentative.sql, sending: tentative.sending, rateLimiter },
        host: config.host,
        port: submission.port,
        tlsPort: submission.tlsPort,
        tls: submissionTls,
        serverName: submission.host,
        maxBytes: submission.maxBytes,
        logger,
        optionalPorts: submission.portsOptional,
      })
    : undefined;
  const submissionListens =
    submissionSmtp !== undefined &&
    submissionTls !== undefined &&
    (submissionSmtp.port !== undefined || submissionSmtp.tlsPort !== undefined);
  if (submissionListens) {
    logger.info(
      { port: submissionSmtp.port, tlsPort: submissionSmtp.tlsPort },
      'smtp submission listening',
    );
  }
  const deps: AppDeps = submissionListens
    ? {
        ...tentative,
        features: { ...tentative.features, smtp: true },
        smtpSubmission: {
          host: submission.host,
          port: submissionSmtp.port ?? null,
          tlsPort: submissionSmtp.tlsPort ?? null,
          certificateSha256: submissionTls.sha256,
        },
      }
    : tentative;
  const closeSmtp = async (): Promise<void> => {
    await submissionSmtp?.close();
    await inbound?.close();
  };
  const app = createApp({ deps });
  const server = app.listen(config.port, config.host);
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  }).catch(async (error: unknown) => {
    await closeSmtp();
    throw error;
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    server,
    port,
    inboundPort: inbound?.port,
    submissionPort: submissionSmtp?.port,
    submissionTlsPort: submissionSmtp?.tlsPort,
    close: async () => {
      await closeSmtp();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await engine.close();
      await wake.close();
      await pool.end();
    },
  };
}
