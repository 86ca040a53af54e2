import type { BounceType } from '../sending/delivery-feedback.pure.js';

/** How a report to a return-path address was read. */
export const REPORT_FORMATS = ['dsn', 'arf', 'plain_bounce', 'auto_reply', 'unknown'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * What became of a report: applied to its email; read but already applied (a repeat); ignored
 * (an auto-reply, or a report of no failure); undetermined (bad token, unreadable, or naming
 * another recipient), kept for a person to look at, changing nothing.
 */
export const REPORT_OUTCOMES = ['applied', 'repeated', 'ignored', 'undetermined'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** One recipient's failure as a report tells it. */
export interface ReportedFailure {
  recipient: string;
  bounceType: BounceType;
  status?: string;
  diagnostic?: string;
}

export type ReportReading =
  | { format: Extract<ReportFormat, 'dsn' | 'plain_bounce'>; failures: ReportedFailure[] }
  | { format: Extract<ReportFormat, 'arf'>; recipient?: string; feedbackType: string }
  | { format: Extract<ReportFormat, 'auto_reply'> }
  | { format: Extract<ReportFormat, 'unknown'>; reason: string };

/** RFC 5965 feedback types that are a recipient's complaint (not-spam and auth-failure are not). */
export const COMPLAINT_FEEDBACK_TYPES = ['abuse', 'fraud', 'virus', 'other'] as const;

export const isComplaint = (feedbackType: string): boolean =>
  (COMPLAINT_FEEDBACK_TYPES as readonly string[]).includes(feedbackType.toLowerCase());
