import { inject } from 'vitest';
import { createSql, createSqlPool, type Sql } from '../../db/sql/sql.js';
import { EMAIL_QUEUED_CHANNEL } from '../../db/sql/wakeups.sql.js';
import { createLogger } from '../../runtime/logger.js';
import { startPgQueueWakeups } from '../../runtime/pg-queue-wakeups.js';
import { createSmtpMailer } from '../../runtime/smtp/smtp-mailer.js';
import { TemporalWorkflowEngine } from '../../temporal/client.js';
import type { TestStack } from './stack.js';

/**
 * What a delivery lane run in a test needs, on the stack's queue, database and SMTP sink: a pool,
 * the SMTP mailer, the queue's wake-ups, and a workflow engine whose Temporal cannot be reached
 * (127.0.0.1:9), so a hand-off to a retry workflow fails. Stop the stack's worker first, so the
 * test's lane is the only one on the queue.
 */
export async function startLaneHarness(stack: TestStack, { poolMax }: { poolMax: number }) {
  const queue = stack.env.TEMPORAL_TASK_QUEUE as string;
  const url = inject('stack').databaseUrl;
  const pool = createSqlPool({ url, max: poolMax });
  const sql: Sql = createSql(pool);
  const mailer = createSmtpMailer({ url: stack.smtp.url });
  const wakeups = await startPgQueueWakeups({
    channel: EMAIL_QUEUED_CHANNEL,
    url,
    queue,
    logger: createLogger({ level: 'silent', name: 'test' }),
  });
  const engine = TemporalWorkflowEngine.create({
    address: '127.0.0.1:9',
    namespace: 'default',
    taskQueue: queue,
    tls: false,
  });
  return {
    queue,
    sql,
    mailer,
    wakeups,
    engine,
    encryptionKey: stack.env.ENCRYPTION_KEY as string,
    publicUrl: stack.env.PUBLIC_URL as string,
    async close(): Promise<void> {
      mailer.close();
      await wakeups.close();
      await engine.close();
      await pool.end();
    },
  };
}
