/** Where an email is: accepted (QUEUED or SUPPRESSED), then what delivery made of it. */
export const EMAIL_STATUSES = [
  'QUEUED',
  'SENT',
  'DELIVERED',
  'BOUNCED',
  'FAILED',
  'SUPPRESSED',
  /** A campaign's email that was never handed to SMTP when the campaign was cancelled. */
  'CANCELLED',
] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/**
 * What the relay made of one email handed to it: ACCEPTED (a 250, recorded SENT by the caller),
 * or the status a permanent refusal left it in.
 */
export type SmtpAnswer = 'ACCEPTED' | Extract<EmailStatus, 'BOUNCED' | 'FAILED'>;

/**
 * What one delivery attempt did with an email (BOUNCED: the relay refused the address as one
 * that does not exist); SKIPPED when it was no longer queued.
 */
export type DeliveryOutcome = Extract<EmailStatus, 'SENT' | 'FAILED' | 'BOUNCED'> | 'SKIPPED';

/** The statuses an accepted email starts in (POST /v1/send answers one per recipient). */
export const ACCEPTED_EMAIL_STATUSES = [
  'QUEUED',
  'SUPPRESSED',
] as const satisfies readonly EmailStatus[];
export type AcceptedEmailStatus = (typeof ACCEPTED_EMAIL_STATUSES)[number];
