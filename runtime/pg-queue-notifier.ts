import { notifyQueues } from '../db/sql/wakeups.sql.js';
import { createSql, createSqlPool } from '../db/sql/sql.js';
import type { QueueNotifier } from '../domain/shared/ports.js';
import type { Logger } from './logger.js';

/**
 * Wakes the listeners of `channel` (delivery lanes after mail was queued, the automation
 * dispatcher after events were recorded): one NOTIFY per queue at most every `coalesceMs`,
 * in a transaction of its own that does not wait for the disk. NOTIFY inside the accepting
 * transaction would hold PostgreSQL's global notify lock through that transaction's commit and
 * serialize every accepting commit (measured: accept p50 35 ms with it, 15 ms without). A wake-up
 * lost to a crash costs nothing but latency: lanes also look for work every few seconds.
 */
export function createPgQueueNotifier({
  url,
  channel,
  logger,
  coalesceMs = 10,
}: {
  url: string;
  channel: string;
  logger: Logger;
  coalesceMs?: number;
}): QueueNotifier & { close(): Promise<void> } {
  const pool = createSqlPool({
    url,
    max: 1,
    asynchronousCommit: true,
    onIdleError: (error) =>
      logger.warn({ err: error, channel }, 'queue notifier connection failed'),
  });
  const sql = createSql(pool);
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  const flush = (): void => {
    timer = undefined;
    const queues = [...pending];
    pending.clear();
    notifyQueues(sql, { channel, queues }).catch((error: unknown) =>
      logger.warn({ err: error, channel }, 'could not wake the listeners'),
    );
  };

  return {
    queued(queue) {
      pending.add(queue);
      timer ??= setTimeout(flush, coalesceMs);
    },
    async close() {
      if (timer) {
        clearTimeout(timer);
        flush();
      }
      await pool.end();
    },
  };
}
