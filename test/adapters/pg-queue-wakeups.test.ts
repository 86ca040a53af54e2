import {
  AUTOMATION_PENDING_CHANNEL,
  EMAIL_QUEUED_CHANNEL,
  WEBHOOKS_PENDING_CHANNEL,
} from '../../db/sql/wakeups.sql.js';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, inject } from 'vitest';
import { createLogger } from '../../runtime/logger.js';
import { createPgQueueNotifier, createPgQueueNotifiers } from '../../runtime/pg-queue-notifier.js';
import { startPgChannelWakeups, startPgQueueWakeups } from '../../runtime/pg-queue-wakeups.js';

const logger = createLogger({ level: 'silent', name: 'test' });
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function pair(queue: string) {
  const url = inject('stack').databaseUrl;
  const wakeups = await startPgQueueWakeups({
    channel: EMAIL_QUEUED_CHANNEL,
    url,
    queue,
    logger,
  });
  const notifier = createPgQueueNotifier({ channel: EMAIL_QUEUED_CHANNEL, url, logger });
  closers.push(wakeups.close, notifier.close);
  return { wakeups, notifier };
}

describe('delivery lane wake-ups over LISTEN/NOTIFY', () => {
  it('wakes a waiting lane when mail is queued on its queue, and only then', async () => {
    const queue = `q-${randomUUID()}`;
    const { wakeups, notifier } = await pair(queue);
    const other = await pair(`q-${randomUUID()}`);

    const before = wakeups.generation();
    // Another queue's mail does not wake this lane: the wait runs to its (short) timeout.
    other.notifier.queued(`q-${randomUUID()}`);
    await wakeups.waitForChange(before, 300);
    expect(wakeups.generation()).toBe(before);

    // Its own queue's mail does, long before the ten minutes it would otherwise sleep.
    const waiting = wakeups.waitForChange(before, 600_000);
    notifier.queued(queue);
    notifier.queued(queue); // coalesced with the first
    await waiting;
    expect(wakeups.generation()).toBeGreaterThan(before);
  });

  it('does not sleep through a wake-up that came before the wait began', async () => {
    const queue = `q-${randomUUID()}`;
    const { wakeups, notifier } = await pair(queue);
    const seen = wakeups.generation();
    notifier.queued(queue);
    while (wakeups.generation() === seen) await new Promise((r) => setTimeout(r, 5));
    // A lane that looked (and found nothing) at `seen` returns at once instead of sleeping for
    // ten minutes (which would fail this test on its timeout).
    await wakeups.waitForChange(seen, 600_000);
    expect(wakeups.generation()).not.toBe(seen);
  });

  it('lets an aborted lane stop waiting', async () => {
    const { wakeups } = await pair(`q-${randomUUID()}`);
    const abort = new AbortController();
    const waiting = wakeups.waitForChange(wakeups.generation(), 600_000, abort.signal);
    abort.abort();
    await waiting;
    expect(abort.signal.aborted).toBe(true);
  });

  it('carries several channels on one connection each way: a notice wakes its own channel alone', async () => {
    const url = inject('stack').databaseUrl;
    const queue = `q-${randomUUID()}`;
    const channels = [
      EMAIL_QUEUED_CHANNEL,
      AUTOMATION_PENDING_CHANNEL,
      WEBHOOKS_PENDING_CHANNEL,
    ] as const;
    const listener = await startPgChannelWakeups({ url, channels, queue, logger });
    closers.push(listener.close);
    const wake = createPgQueueNotifiers({
      url,
      channels: {
        [EMAIL_QUEUED_CHANNEL]: { coalesceMs: 10 },
        [AUTOMATION_PENDING_CHANNEL]: { coalesceMs: 50 },
        [WEBHOOKS_PENDING_CHANNEL]: { coalesceMs: 10 },
      },
      logger,
    });
    closers.push(wake.close);

    for (const channel of channels) {
      const seen = new Map(channels.map((c) => [c, listener.wakeups[c].generation()]));
      const waiting = listener.wakeups[channel].waitForChange(seen.get(channel) ?? -1, 600_000);
      wake.notifiers[channel].queued(queue);
      await waiting;
      for (const other of channels) {
        if (other === channel)
          expect(listener.wakeups[other].generation()).toBeGreaterThan(seen.get(other) ?? -1);
        else
          expect(listener.wakeups[other].generation(), `${other} woken by ${channel}`).toBe(
            seen.get(other),
          );
      }
    }
  });
});
