import pg from 'pg';
import { listenTo } from '../db/sql/wakeups.sql.js';
import type { QueueWakeups } from '../domain/shared/ports.js';
import { createLocalWakeups } from '../domain/shared/local-wakeups.js';
import type { Logger } from './logger.js';

/**
 * One LISTEN connection per worker process and `channel` (queued mail, pending automation work),
 * filtered to this worker's queue. If the connection drops it is
 * opened again; meanwhile lanes fall back to polling on their timeout, so nothing waits forever.
 */
export async function startPgQueueWakeups({
  url,
  channel,
  queue,
  logger,
}: {
  url: string;
  channel: string;
  queue: string;
  logger: Logger;
}): Promise<QueueWakeups & { close(): Promise<void> }> {
  // The generation and its waiters are the in-process ones; a NOTIFY for our queue moves them on.
  const local = createLocalWakeups();
  const wake = (): void => local.wake();
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.payload === queue) wake();
    });
    next.on('error', (error) => {
      logger.warn({ err: error, channel }, 'queue listener lost its connection');
      next.end().catch(() => undefined);
      if (client === next) client = undefined;
      if (!closed) retry = setTimeout(() => void connect().catch(() => undefined), 1000);
    });
    try {
      await next.connect();
      await next.query(listenTo(channel));
      client = next;
      wake(); // anything queued while not listening is picked up now
    } catch (error) {
      await next.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void connect().catch(() => undefined), 1000);
      throw error;
    }
  };
  await connect();

  return {
    generation: local.generation,
    waitForChange: local.waitForChange,
    async close() {
      closed = true;
      clearTimeout(retry);
      wake();
      await client?.end().catch(() => undefined);
    },
  };
}
