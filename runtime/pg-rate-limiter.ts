import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitDecision, RateLimiter } from '../domain/shared/ports.js';

const WINDOW_SECONDS = 60;

/** Points a process takes from the shared counter at once: 1% of the limit, 1 to 100. */
export function reservationSize(perMinute: number): number {
  return Math.max(1, Math.min(100, Math.floor(perMinute / 100)));
}

interface Window {
  expiresAt: number;
  /** Points this process reserved and has not spent yet. */
  reserved: number;
  /** Points left in the shared counter after our last reservation. */
  sharedLeft: number;
}

/**
 * Fixed one-minute windows per key, counted in PostgreSQL (table `rate_limits`, through
 * rate-limiter-flexible) so every replica shares them. Counting each request there would make
 * every request of a project wait on the same row lock, so each process reserves points in
 * small chunks and spends them locally. The shared counter never exceeds the limit in total;
 * with several replicas, up to (replicas - 1) x chunk points of a window may go unused.
 */
export function createPgRateLimiter({
  pool,
  perMinute,
}: {
  pool: pg.Pool;
  perMinute: number;
}): RateLimiter {
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    points: perMinute,
    duration: WINDOW_SECONDS,
  });
  const chunk = reservationSize(perMinute);
  const windows = new Map<string, Window>();

  const decide = (window: Window, allowed: boolean, now: number): RateLimitDecision => ({
    allowed,
    limit: perMinute,
    remaining: Math.max(0, window.sharedLeft + window.reserved),
    resetSeconds: Math.max(1, Math.ceil((window.expiresAt - now) / 1000)),
  });

  async function reserve(key: string, want: number, now: number): Promise<Window> {
    let res: RateLimiterRes;
    try {
      res = await limiter.consume(key, want);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      res = rejection;
    }
    // The counter went up by `want`; whatever of it fits under the limit is ours to spend.
    const over = Math.max(0, res.consumedPoints - perMinute);
    return {
      expiresAt: now + res.msBeforeNext,
      reserved: Math.max(0, want - over),
      sharedLeft: Math.max(0, perMinute - res.consumedPoints),
    };
  }

  // One reservation in flight per key: concurrent requests wait for it and share its points
  // instead of each taking (and stranding) a chunk of their own.
  const pending = new Map<string, Promise<void>>();

  async function refill(key: string, current: Window | undefined, now: number): Promise<void> {
    const fresh = await reserve(key, current ? Math.min(chunk, current.sharedLeft) : chunk, now);
    const window = windows.get(key);
    if (window && window.expiresAt === current?.expiresAt && now < window.expiresAt) {
      window.reserved += fresh.reserved;
      window.sharedLeft = fresh.sharedLeft;
    } else {
      windows.set(key, fresh);
    }
    if (windows.size > 10_000) {
      for (const [k, w] of windows) if (w.expiresAt <= now) windows.delete(k);
    }
  }

  return {
    async consume(key: string): Promise<RateLimitDecision> {
      for (;;) {
        const now = Date.now();
        const window = windows.get(key);
        const live = window && now < window.expiresAt ? window : undefined;
        if (live && live.reserved > 0) {
          live.reserved -= 1;
          return decide(live, true, now);
        }
        if (live && live.sharedLeft === 0) return decide(live, false, now);
        const inFlight = pending.get(key);
        if (inFlight) {
          await inFlight;
          continue;
        }
        const refilling = refill(key, live, now).finally(() => pending.delete(key));
        pending.set(key, refilling);
        await refilling;
        const after = windows.get(key);
        // The shared counter had nothing left for us: refuse without another round trip.
        if (after && after.reserved === 0 && after.sharedLeft === 0)
          return decide(after, false, Date.now());
      }
    },
  };
}
