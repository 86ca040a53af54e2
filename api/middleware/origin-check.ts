import type { Middleware } from 'koa';
import { SESSION_COOKIE } from '../../domain/accounts/sessions.js';
import { forbidden } from '../../domain/shared/errors.js';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function originOf(value: string): string | undefined {
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}

/**
 * Cross-site request forgery guard: a state-changing request that would act with the session
 * cookie must come from a page of PUBLIC_URL's origin (its Origin header, else its Referer).
 * Requests with an API key authenticate with the key and are left alone, as are cookie requests
 * that carry neither header (not a browser's cross-site request).
 */
export function originCheck({ publicUrl }: { publicUrl: string }): Middleware {
  const allowed = new URL(publicUrl).origin;
  return async (ctx, next) => {
    if (
      UNSAFE.has(ctx.method) &&
      ctx.cookies.get(SESSION_COOKIE) &&
      !/^Bearer\s/i.test(ctx.get('Authorization'))
    ) {
      const origin = ctx.get('Origin') || ctx.get('Referer');
      if (origin && originOf(origin) !== allowed) {
        throw forbidden(`Requests with the session cookie must come from ${allowed}`);
      }
    }
    await next();
  };
}
