import {
  clearAttempts,
  countRecentAttempts,
  recordAttempts,
} from '../../db/sql/auth-attempts.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { DomainError } from '../shared/errors.js';
import {
  ATTEMPT_RETENTION_SECONDS,
  AUTH_LIMITS,
  bucketKey,
  decideAll,
  decideAttempt,
  type AttemptBucket,
} from './auth-limits.pure.js';

/** A 429 whose wait the transport sends as Retry-After. */
export class TooManyAttemptsError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('RATE_LIMIT_EXCEEDED', 'Too many attempts', {
      suggestion: `Retry after ${retryAfterSeconds} seconds.`,
    });
  }
}

/** Who is asking: the client address as the transport sees it, and its user agent. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/** Throws TooManyAttemptsError when any bucket is full; records nothing. */
export async function assertUnderLimits(sql: Sql, buckets: AttemptBucket[]): Promise<void> {
  const rows = await countRecentAttempts(sql, {
    buckets: buckets.map((b) => ({
      key: bucketKey(b),
      windowSeconds: AUTH_LIMITS[b.limit].windowSeconds,
    })),
  });
  const byKey = new Map(rows.map((r) => [r.bucket, r]));
  const decision = decideAll(
    buckets.map((b) => {
      const row = byKey.get(bucketKey(b));
      return decideAttempt(AUTH_LIMITS[b.limit], {
        attempts: row?.attempts ?? 0,
        oldestAgeSeconds: row?.oldest_age_seconds ?? 0,
      });
    }),
  );
  if (!decision.allowed) throw new TooManyAttemptsError(decision.retryAfterSeconds);
}

export async function recordAttempt(sql: Sql, buckets: AttemptBucket[]): Promise<void> {
  await recordAttempts(sql, {
    buckets: buckets.map(bucketKey),
    keepSeconds: ATTEMPT_RETENTION_SECONDS,
  });
}

/** Counts a request against its buckets, or refuses it (uncounted) when one is full. */
export async function takeAttempt(sql: Sql, buckets: AttemptBucket[]): Promise<void> {
  await assertUnderLimits(sql, buckets);
  await recordAttempt(sql, buckets);
}

export async function forgetAttempts(sql: Sql, bucket: AttemptBucket): Promise<void> {
  await clearAttempts(sql, { bucket: bucketKey(bucket) });
}

/** The failed-login buckets of an address (already normalised) from a client. */
export const loginBuckets = (email: string, ip: string): [AttemptBucket, AttemptBucket] => [
  { limit: 'loginFailuresPerAccount', subject: email },
  { limit: 'loginFailuresPerIp', subject: ip },
];

export const signupBuckets = (email: string, ip: string): AttemptBucket[] => [
  { limit: 'signupsPerAddress', subject: email },
  { limit: 'signupsPerIp', subject: ip },
];

/** Failed SMTP submission logins from a client address. */
export const smtpAuthBuckets = (ip: string): AttemptBucket[] => [
  { limit: 'smtpAuthFailuresPerIp', subject: ip },
];

export const accountEmailBuckets = (email: string, ip: string): AttemptBucket[] => [
  { limit: 'accountEmailsPerAddress', subject: email },
  { limit: 'accountEmailsPerIp', subject: ip },
];

/** A project's public subscription requests from one client address (double opt-in mail). */
export const subscribeBuckets = (projectId: string, ip: string): AttemptBucket[] => [
  { limit: 'subscribeRequestsPerIp', subject: `${projectId}:${ip}` },
];
