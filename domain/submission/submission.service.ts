import {
  assertUnderLimits,
  recordAttempt,
  smtpAuthBuckets,
  TooManyAttemptsError,
} from '../accounts/auth-throttle.service.js';
import { findSendContext } from '../../db/sql/queue-email.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { matchSenderDomain, unverifiedSenderProblem } from '../domains/sender-domain.pure.js';
import { lookupKeysAlone } from '../projects/key-lookups.js';
import { authenticateApiKey } from '../projects/projects.service.js';
import { DomainError, validationError } from '../shared/errors.js';
import type { RateLimiter } from '../shared/ports.js';
import { SMTP_REPLIES, SmtpRefusal } from './smtp-reply.pure.js';

/**
 * SMTP AUTH (PLAIN or LOGIN): any username, the project's secret key as the password, looked up
 * as the API looks up a bearer key (by its hash). A wrong key or a public one counts as a failed
 * login of the client address; past the limit every AUTH from it is refused (454) until the
 * window lets one more in, without looking at the key.
 */
export async function authenticateSubmission({
  sql,
  password,
  ip,
}: {
  sql: Sql;
  password: string;
  ip: string;
}): Promise<SubmissionLogin> {
  const buckets = smtpAuthBuckets(ip);
  try {
    await assertUnderLimits(sql, buckets);
  } catch (error) {
    if (error instanceof TooManyAttemptsError)
      throw new SmtpRefusal(SMTP_REPLIES.throttled(error.retryAfterSeconds));
    throw error;
  }
  const key = password.trim();
  const identity = await authenticateApiKey({ lookup: lookupKeysAlone({ sql }), key });
  if (!identity || identity.kind === 'public') {
    await recordAttempt(sql, buckets);
    throw new SmtpRefusal(identity ? SMTP_REPLIES.publicKey : SMTP_REPLIES.badKey);
  }
  if (identity.disabled) throw new SmtpRefusal(SMTP_REPLIES.projectDisabled);
  return { projectId: identity.projectId, key };
}

/** The project's verified domains, which senders may use. */
export async function senderDomains({
  sql,
  projectId,
}: {
  sql: Sql;
  projectId: string;
}): Promise<{ id: string; domain: string }[]> {
  return (await findSendContext(sql, { projectId })).verifiedDomains;
}

/** Who an authenticated SMTP session sends for, and the key it logged in with. */
export interface SubmissionLogin {
  projectId: string;
  key: string;
}

/**
 * Every message, as every API request: the key the session logged in with must still be the
 * project's (rotated keys stop working at once) and the project not disabled.
 */
export async function confirmLogin({
  sql,
  login,
}: {
  sql: Sql;
  login: SubmissionLogin;
}): Promise<void> {
  const identity = await authenticateApiKey({ lookup: lookupKeysAlone({ sql }), key: login.key });
  if (identity?.projectId !== login.projectId) throw new SmtpRefusal(SMTP_REPLIES.keyGone);
  if (identity.disabled) throw new SmtpRefusal(SMTP_REPLIES.disabledNow);
}

/**
 * MAIL FROM: the message counts against the project's request rate limit (the API's bucket, so
 * SMTP and HTTP share one budget), and a non-empty envelope sender must be on a verified domain
 * of the project, as the From header must (checked afresh with the message). `domains` answers
 * the project's verified domains (the transport reads them once per SMTP session).
 */
export async function startSubmission({
  rateLimiter,
  projectId,
  sender,
  domains,
}: {
  rateLimiter: RateLimiter;
  projectId: string;
  /** The envelope sender; empty for the null sender `<>`. */
  sender: string;
  domains: () => Promise<{ id: string; domain: string }[]>;
}): Promise<void> {
  // The key api/middleware/rate-limit.ts counts a project's requests under.
  const decision = await rateLimiter.consume(`project:${projectId}`);
  if (!decision.allowed) {
    throw new DomainError('RATE_LIMIT_EXCEEDED', 'Too many requests', {
      suggestion: `Retry after ${Math.max(1, decision.resetSeconds)} seconds.`,
    });
  }
  if (!sender) return;
  if (!matchSenderDomain(await domains(), sender))
    throw validationError(unverifiedSenderProblem(sender, 'MAIL FROM'));
}
