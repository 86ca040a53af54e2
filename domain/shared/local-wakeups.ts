import type { QueueWakeups } from './ports.js';

/**
 * Wake-ups within one process: `wake()` moves the generation on and resolves every waiter (the
 * dispatcher lane tells its webhook sender that it queued deliveries, without a NOTIFY).
 */
export function createLocalWakeups(): QueueWakeups & { wake(): void } {
  let generation = 0;
  let waiters = new Set<() => void>();
  return {
    generation: () => generation,
    wake() {
      generation += 1;
      const woken = waiters;
      waiters = new Set();
      for (const resolve of woken) resolve();
    },
    waitForChange(since, timeoutMs, signal) {
      if (generation !== since || signal?.aborted || timeoutMs <= 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        signal?.addEventListener('abort', done, { once: true });
        waiters.add(done);
      });
    },
  };
}
