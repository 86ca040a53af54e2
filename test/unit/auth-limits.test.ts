import { describe, expect, it } from 'vitest';
import {
  AUTH_LIMITS,
  bucketKey,
  decideAll,
  decideAttempt,
} from '../../domain/accounts/auth-limits.pure.js';

const limit = { max: 10, windowSeconds: 900 };

describe('the attempt limiter', () => {
  it('allows up to max - 1 counted attempts, refuses at max', () => {
    expect(decideAttempt(limit, { attempts: 0, oldestAgeSeconds: 0 })).toEqual({ allowed: true });
    expect(decideAttempt(limit, { attempts: 9, oldestAgeSeconds: 100 })).toEqual({
      allowed: true,
    });
    expect(decideAttempt(limit, { attempts: 10, oldestAgeSeconds: 100 })).toEqual({
      allowed: false,
      retryAfterSeconds: 800,
    });
  });

  it('waits until the oldest attempt leaves the window, at least a second, rounded up', () => {
    expect(decideAttempt(limit, { attempts: 10, oldestAgeSeconds: 0.2 })).toEqual({
      allowed: false,
      retryAfterSeconds: 900,
    });
    expect(decideAttempt(limit, { attempts: 12, oldestAgeSeconds: 899.9 })).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
    });
    expect(decideAttempt(limit, { attempts: 10, oldestAgeSeconds: 950 })).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
    });
  });

  it('combines an account and a client address: any full bucket refuses, for the longest wait', () => {
    const ok = { allowed: true } as const;
    expect(decideAll([ok, ok])).toEqual(ok);
    expect(decideAll([ok, { allowed: false, retryAfterSeconds: 30 }])).toEqual({
      allowed: false,
      retryAfterSeconds: 30,
    });
    expect(
      decideAll([
        { allowed: false, retryAfterSeconds: 30 },
        { allowed: false, retryAfterSeconds: 600 },
      ]),
    ).toEqual({ allowed: false, retryAfterSeconds: 600 });
  });

  it('keeps accounts and client addresses in buckets of their own', () => {
    expect(bucketKey({ limit: 'loginFailuresPerAccount', subject: 'a@example.com' })).not.toBe(
      bucketKey({ limit: 'loginFailuresPerIp', subject: 'a@example.com' }),
    );
    expect(AUTH_LIMITS.loginFailuresPerAccount).toEqual({ max: 10, windowSeconds: 900 });
  });
});
