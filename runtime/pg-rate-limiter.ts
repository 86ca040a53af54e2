import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitDecision, RateLimiter } from '../domain/shared/ports.js';

/** Fixed one-minute windows counted in PostgreSQL (table `rate_limits`), so replicas share them. */
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
    duration: 60,
  });
  const decision = (res: RateLimiterRes, allowed: boolean): RateLimitDecision => ({
    allowed,
    limit: perMinute,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.ceil(res.msBeforeNext / 1000),
  });
  return {
    async consume(key: string): Promise<RateLimitDecision> {
      try {
        return decision(await limiter.consume(key), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(rejection, false);
        throw rejection;
      }
    },
  };
}
