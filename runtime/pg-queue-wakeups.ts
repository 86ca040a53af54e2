import pg from 'pg';
import { listenTo } from '../db/sql/wakeups.sql.js';
import type { QueueWakeups } from '../domain/shared/ports.js';
import { createLocalWakeups } from '../domain/shared/local-wakeups.js';
import type { Logger } from './logger.js';

/**
 * One LISTEN connection per worker process for all its `channels` (queued mail, pending
 * automation work, webhook deliveries), each channel's notices filtered to this worker's queue
 * and moving on that channel's wake-ups alone. If the connection drops it is opened again;
 * meanwhile lanes fall back to polling on their timeout, so nothing waits forever.
 */
export async function startPgChannelWakeups<C extends string>({
  url,
  channels,
  queue,
  logger,
}: {
  url: string;
  channels: readonly C[];
  queue: string;
  logger: Logger;
}): Promise<{ wakeups: Record<C, QueueWakeups>; close(): Promise<void> }> {
  // Each channel's generation and waiters are in-process; a NOTIFY for our queue moves them on.
  const locals = new Map(channels.map((channel) => [channel as string, createLocalWakeups()]));
  const wakeAll = (): void => {
    for (const local of locals.values()) local.wake();
  };
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.payload === queue) locals.get(message.channel)?.wake();
    });
    next.on('error', (error) => {
      logger.warn({ err: error, channels }, 'queue listener lost its connection');
      next.end().catch(() => undefined);
      if (client === next) client = undefined;
      if (!closed) retry = setTimeout(() => void connect().catch(() => undefined), 1000);
    });
    try {
      await next.connect();
      for (const channel of channels) await next.query(listenTo(channel));
      client = next;
      wakeAll(); // anything queued while not listening is picked up now
    } catch (error) {
      await next.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void connect().catch(() => undefined), 1000);
      throw error;
    }
  };
  await connect();

  const wakeups = Object.fromEntries(
    [...locals].map(([channel, local]) => [
      channel,
      { generation: local.generation, waitForChange: local.waitForChange },
    ]),
  ) as Record<C, QueueWakeups>;
  return {
    wakeups,
    async close() {
      closed = true;
      clearTimeout(retry);
      wakeAll();
      await client?.end().catch(() => undefined);
    },
  };
}

/** startPgChannelWakeups for one channel (a lane that hears one kind of work). */
export async function startPgQueueWakeups({
  channel,
  ...rest
}: {
  url: string;
  channel: string;
  queue: string;
  logger: Logger;
}): Promise<QueueWakeups & { close(): Promise<void> }> {
  const { wakeups, close } = await startPgChannelWakeups({ ...rest, channels: [channel] });
  return { ...(wakeups[channel] as QueueWakeups), close };
}
