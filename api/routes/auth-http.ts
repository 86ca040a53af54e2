import type { Context } from 'koa';
import {
  TooManyAttemptsError,
  type ClientInfo,
} from '../../domain/accounts/auth-throttle.service.js';
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from '../../domain/accounts/sessions.js';
import type { HttpSettings } from '../deps.js';

/** HttpOnly, SameSite=Lax, host-only (no Domain), Secure when the public URL is https. */
export function setSessionCookie(ctx: Context, http: HttpSettings, value: string | null): void {
  const secure = http.secureCookies;
  if (secure) ctx.cookies.secure = true;
  ctx.cookies.set(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: value ? SESSION_TTL_SECONDS * 1000 : 0,
    overwrite: true,
  });
}

/** The client address (X-Forwarded-For only when TRUST_PROXY) and user agent of a request. */
export function clientOf(ctx: Context): ClientInfo {
  return { ip: ctx.ip, userAgent: ctx.get('User-Agent') || null };
}

/** Runs a throttled account action; a refusal leaves as 429 with Retry-After (seconds). */
export async function withRetryAfter<T>(ctx: Context, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TooManyAttemptsError) {
      ctx.set('Retry-After', String(error.retryAfterSeconds));
    }
    throw error;
  }
}
