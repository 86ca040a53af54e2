import { notifyQueues } from '../db/sql/wakeups.sql.js';
import { createSql, createSqlPool } from '../db/sql/sql.js';
import type { QueueNotifier } from '../domain/shared/ports.js';
import type { Logger } from './logger.js';

/**
 * Wakes the listeners of each of `channels` (delivery lanes after mail was queued, the automation
 * dispatcher after events were recorded, webhook lanes): per channel, one NOTIFY per queue at
 * most every `coalesceMs` (that channel's setting), over one connection for them all, each in a
 * transaction of its own that does not wait for the disk. NOTIFY inside the accepting
 * transaction would hold PostgreSQL's global notify lock through that transaction's commit and
 * serialize every accepting commit (measured: accept p50 35 ms with it, 15 ms without). A
 * wake-up lost to a crash costs nothing but latency: lanes also look for work every few seconds.
 */
export function createPgQueueNotifiers<C extends string>({
  url,
  channels,
  logger,
}: {
  url: string;
  channels: Record<C, { coalesceMs: number }>;
  logger: Logger;
}): { notifiers: Record<C, QueueNotifier>; close(): Promise<void> } {
  const pool = createSqlPool({
    url,
    max: 1,
    asynchronousCommit: true,
    onIdleError: (error) => logger.warn({ err: error }, 'queue notifier connection failed'),
  });
  const sql = createSql(pool);
  const flushes: (() => void)[] = [];

  const notifierOf = (channel: string, coalesceMs: number): QueueNotifier => {
    const pending = new Set<string>();
    let timer: NodeJS.Timeout | undefined;
    const flush = (): void => {
      clearTimeout(timer);
      timer = undefined;
      if (pending.size === 0) return;
      const queues = [...pending];
      pending.clear();
      notifyQueues(sql, { channel, queues }).catch((error: unknown) =>
        logger.warn({ err: error, channel }, 'could not wake the listeners'),
      );
    };
    flushes.push(flush);
    return {
      queued(queue) {
        pending.add(queue);
        timer ??= setTimeout(flush, coalesceMs);
      },
    };
  };

  const notifiers = Object.fromEntries(
    (Object.entries(channels) as [C, { coalesceMs: number }][]).map(([channel, { coalesceMs }]) => [
      channel,
      notifierOf(channel, coalesceMs),
    ]),
  ) as Record<C, QueueNotifier>;
  return {
    notifiers,
    async close() {
      for (const flush of flushes) flush();
      await pool.end();
    },
  };
}

/** createPgQueueNotifiers for one channel. */
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
  const { notifiers, close } = createPgQueueNotifiers({
    url,
    channels: { [channel]: { coalesceMs } },
    logger,
  });
  return { ...(notifiers[channel] as QueueNotifier), close };
}
