import type { Context } from 'koa';
import { DomainError } from '../../domain/shared/errors.js';
import type { RateLimiter } from '../../domain/shared/ports.js';
import type { AuthInfo } from '../http/route.js';

/**
 * Per project when the caller has one (the spec's 1000/min); per user for a dashboard session
 * outside a project (listing or creating projects), so colleagues behind one address do not share
 * a budget; per client address otherwise (login and sign-up), so an unauthenticated flood cannot
 * spend a project's or a user's budget.
 */
function budgetKey(ctx: Context, auth: AuthInfo): string {
  if (auth.projectId) return `project:${auth.projectId}`;
  if (auth.principal?.type === 'session') return `user:${auth.principal.userId}`;
  return `ip:${ctx.ip}`;
}

export async function enforceRateLimit({
  ctx,
  limiter,
  auth,
}: {
  ctx: Context;
  limiter: RateLimiter;
  auth: AuthInfo;
}): Promise<void> {
  const decision = await limiter.consume(budgetKey(ctx, auth));
  ctx.set('RateLimit-Limit', String(decision.limit));
  ctx.set('RateLimit-Remaining', String(decision.remaining));
  ctx.set('RateLimit-Reset', String(decision.resetSeconds));
  if (!decision.allowed) {
    ctx.set('Retry-After', String(Math.max(1, decision.resetSeconds)));
    throw new DomainError('RATE_LIMIT_EXCEEDED', 'Too many requests', {
      suggestion: `Retry after ${Math.max(1, decision.resetSeconds)} seconds.`,
    });
  }
}
