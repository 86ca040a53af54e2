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

  return {
    async consume(key: string): Promise<RateLimitDecision> {
      const now = Date.now();
      let window = windows.get(key);
      if (!window || now >= window.expiresAt) window = undefined;
      if (window && window.reserved === 0 && window.sharedLeft === 0)
        return decide(window, false, now);
      if (!window || window.reserved === 0) {
        const fresh = await reserve(key, window ? Math.min(chunk, window.sharedLeft) : chunk, now);
        window = fresh;
        windows.set(key, window);
        if (windows.size > 10_000) {
          for (const [k, w] of windows) if (w.expiresAt <= now) windows.delete(k);
        }
      }
      if (window.reserved === 0) return decide(window, false, now);
      window.reserved -= 1;
      return decide(window, true, now);
    },
  };
}
