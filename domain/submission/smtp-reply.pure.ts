import type { ErrorCode } from '../shared/error-codes.pure.js';

/** An SMTP answer: the reply code, and text that starts with its RFC 3463 enhanced status. */
export interface SmtpReply {
  code: number;
  message: string;
}

/** A refusal of SMTP submission, answered to the client as it is. */
export class SmtpRefusal extends Error {
  constructor(readonly reply: SmtpReply) {
    super(reply.message);
    this.name = 'SmtpRefusal';
  }
}

/** What the client sees of a refusal of the /v1/send path (a DomainError's parts). */
export interface Refusal {
  code: ErrorCode;
  message: string;
  suggestion?: string;
  errors?: { field: string; message: string; code: string }[];
}

// One reply line; clients show it to people, who need the reason rather than all of it.
const REPLY_TEXT_MAX = 450;

const reply = (code: number, status: string, text: string): SmtpReply => ({
  code,
  message: `${status} ${text.replace(/\s+/g, ' ').trim()}`.slice(0, REPLY_TEXT_MAX),
});

/** The reply code and enhanced status for each refusal but a validation error's. */
const REFUSAL_REPLIES = {
  PAYLOAD_TOO_LARGE: [552, '5.3.4'],
  BILLING_LIMIT_EXCEEDED: [452, '4.3.1'],
  RATE_LIMIT_EXCEEDED: [452, '4.7.0'],
  INVALID_API_KEY: [535, '5.7.8'],
  UNAUTHORIZED: [535, '5.7.8'],
  FORBIDDEN: [550, '5.7.1'],
  PROJECT_DISABLED: [550, '5.7.1'],
  SERVICE_UNAVAILABLE: [451, '4.3.0'],
  INTERNAL_ERROR: [451, '4.3.0'],
  BAD_REQUEST: [554, '5.6.0'],
  NOT_FOUND: [554, '5.6.0'],
  CONFLICT: [554, '5.6.0'],
  IDEMPOTENCY_KEY_REUSED: [554, '5.6.0'],
  SIGNUPS_DISABLED: [554, '5.6.0'],
} as const satisfies Record<Exclude<ErrorCode, 'VALIDATION_ERROR'>, readonly [number, string]>;

/**
 * The SMTP answer for a message the /v1/send path refuses: 550 for a sender on no verified domain,
 * 552 for too big, 452 over a cap or the rate limit (a client retries later), 451 when the service
 * failed, and 554 with the validation messages for anything else about the message.
 */
export function replyForRefusal(refusal: Refusal): SmtpReply {
  const said = refusal.suggestion ? `${refusal.message}. ${refusal.suggestion}` : refusal.message;
  if (refusal.code !== 'VALIDATION_ERROR') {
    const [code, status] = REFUSAL_REPLIES[refusal.code];
    return reply(code, status, said);
  }
  const errors = refusal.errors ?? [];
  const text = errors.map((e) => `${e.field}: ${e.message}`).join('; ') || said;
  if (errors.some((e) => e.code === 'unverified_domain')) return reply(550, '5.7.1', text);
  if (errors.some((e) => e.code === 'too_big')) return reply(552, '5.3.4', text);
  return reply(554, '5.6.0', text);
}

/** The answers of the submission protocol itself. */
export const SMTP_REPLIES = {
  badKey: reply(
    535,
    '5.7.8',
    "Authentication failed: the password is the project's secret key (sk_...); any username",
  ),
  publicKey: reply(
    535,
    '5.7.8',
    "The public key (pk_) cannot send mail: the password is the project's secret key (sk_...)",
  ),
  projectDisabled: reply(535, '5.7.8', 'This project is disabled'),
  keyGone: reply(
    530,
    '5.7.0',
    "The secret key this session logged in with is no longer the project's: log in again",
  ),
  disabledNow: reply(550, '5.7.1', 'This project is disabled'),
  throttled: (retryAfterSeconds: number): SmtpReply =>
    reply(
      454,
      '4.7.0',
      `Too many failed logins from your address: try again in ${retryAfterSeconds} seconds`,
    ),
  tooManyRecipients: (max: number): SmtpReply =>
    reply(452, '4.5.3', `Too many recipients: at most ${max} per message`),
  tooBig: (maxBytes: number): SmtpReply =>
    reply(552, '5.3.4', `Message larger than ${maxBytes} bytes`),
  unavailable: reply(451, '4.3.0', 'Try again later'),
  authUnavailable: reply(454, '4.7.0', 'Authentication is unavailable; try again later'),
} as const;

export const acceptedReply = (emailIds: string[]): string =>
  `2.0.0 Queued as ${emailIds[0] ?? 'nothing'}${emailIds.length > 1 ? ` and ${emailIds.length - 1} more` : ''}`;
