/** At most `max` attempts within any `windowSeconds` (a sliding window). */
export interface AttemptLimit {
  max: number;
  windowSeconds: number;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * Every throttle of logging in and of the unauthenticated requests that send mail, in one place.
 * An account is its lower-cased address, whether or not it exists, so a refusal reveals nothing.
 * A client address (IP) gets more room than one account: offices and carriers share addresses.
 */
export const AUTH_LIMITS = {
  /** Failed logins (and wrong current passwords) per account; a successful login clears them. */
  loginFailuresPerAccount: { max: 10, windowSeconds: 15 * MINUTE },
  /** Failed logins per client address, whichever accounts they name. */
  loginFailuresPerIp: { max: 30, windowSeconds: 15 * MINUTE },
  signupsPerAddress: { max: 5, windowSeconds: HOUR },
  signupsPerIp: { max: 20, windowSeconds: HOUR },
  /** Password-reset and verification emails asked for, per email address. */
  accountEmailsPerAddress: { max: 5, windowSeconds: HOUR },
  accountEmailsPerIp: { max: 20, windowSeconds: HOUR },
  /**
   * Failed SMTP submission AUTHs (a wrong or public key) per client address. The username is
   * free text and the keys are random, so the address is the only subject worth counting.
   */
  smtpAuthFailuresPerIp: { max: 10, windowSeconds: 15 * MINUTE },
  /**
   * Public signup-form subscriptions (POST /v1/subscribe with the public key) and new
   * confirmation links asked for from an expired one, per project and client address: each can
   * send a double opt-in confirmation email.
   */
  subscribeRequestsPerIp: { max: 20, windowSeconds: HOUR },
} as const satisfies Record<string, AttemptLimit>;

export type AuthLimitName = keyof typeof AUTH_LIMITS;

/** Attempts are kept as long as the longest window needs them. */
export const ATTEMPT_RETENTION_SECONDS = Math.max(
  ...Object.values(AUTH_LIMITS).map((l) => l.windowSeconds),
);

/** A bucket of attempts: a limit and what it counts for (an account, a client address). */
export interface AttemptBucket {
  limit: AuthLimitName;
  subject: string;
}

export const bucketKey = ({ limit, subject }: AttemptBucket): string => `${limit}:${subject}`;

export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Whether one more attempt fits: fewer than `max` in the window. When it does not, the wait is
 * until the oldest counted attempt leaves the window (refused attempts are not counted, so that
 * is when the next one fits).
 */
export function decideAttempt(
  limit: AttemptLimit,
  { attempts, oldestAgeSeconds }: { attempts: number; oldestAgeSeconds: number },
): LimitDecision {
  if (attempts < limit.max) return { allowed: true };
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil(limit.windowSeconds - oldestAgeSeconds)),
  };
}

/** Several buckets at once: refused when any is full, for as long as the longest wait. */
export function decideAll(decisions: LimitDecision[]): LimitDecision {
  let wait = 0;
  for (const d of decisions) if (!d.allowed) wait = Math.max(wait, d.retryAfterSeconds);
  return wait > 0 ? { allowed: false, retryAfterSeconds: wait } : { allowed: true };
}
