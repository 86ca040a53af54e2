import type { Orm } from '../db/orm.js';
import { createSql, createSqlPool } from '../db/sql/sql.js';
import type { TemporalSettings } from '../temporal/connection-options.js';
import { TemporalWorkflowEngine } from '../temporal/client.js';
import { ensureSchedules } from '../temporal/schedules.js';
import { createWorker, ensureSearchAttributes } from '../temporal/worker.js';
import { createDnsResolver } from './dns-resolver.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { createSmtpMailer } from './smtp-mailer.js';

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
  await ensureSearchAttributes(temporal);
  await ensureSchedules({
    settings: temporal,
    domainRecheckEvery: config.domainRecheckInterval,
    emailDispatchEvery: config.emailDispatchInterval,
  });
  const engine = TemporalWorkflowEngine.create(temporal);
  const mailer = createSmtpMailer({ url: smtpUrl });
  const pool = createSqlPool({ url: databaseUrl, max: config.databasePoolMax });
  const { worker, connection } = await createWorker({
    settings: temporal,
    workflowBundlePath: config.temporal.workflowBundlePath,
    deps: {
      orm,
      sql: createSql(pool),
      mailer,
      publicUrl: config.publicUrl,
      systemEmailFrom: config.systemEmailFrom,
      importBatchSize: config.importBatchSize,
      dns: createDnsResolver({ servers: config.dnsServers, timeoutMs: config.dnsTimeoutMs }),
      spfInclude: config.spfInclude,
      encryptionKey: config.secrets.ENCRYPTION_KEY,
      engine,
    },
  });
  const done = worker.run().finally(async () => {
    mailer.close();
    await connection.close();
    await pool.end();
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
