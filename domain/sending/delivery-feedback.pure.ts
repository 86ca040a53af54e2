/** What the mail infrastructure reports about a sent email (POST /webhooks/email, SES). */
export const FEEDBACK_TYPES = ['delivered', 'bounced', 'complained'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

/** A hard bounce suppresses the address; a soft one is only recorded. */
export const BOUNCE_TYPES = ['hard', 'soft'] as const;
export type BounceType = (typeof BOUNCE_TYPES)[number];

/** Where a bounce or complaint was learnt: a relay's answer, a report, or a provider. */
export const FEEDBACK_SOURCES = ['relay', 'dsn', 'arf', 'ses', 'webhook'] as const;
export type FeedbackSource = (typeof FEEDBACK_SOURCES)[number];

/** What a bounce is known by: kept on its `email.bounced` event. */
export interface BounceEvidence {
  source: FeedbackSource;
  /** The SMTP reply code (550) and the enhanced status (5.1.1) when there are. */
  code?: number;
  status?: string;
  /** The relay's or the report's own words, cut to 500 characters. */
  diagnostic?: string;
  /** For a report read at the return path (dsn, arf): its `delivery_reports` id. */
  reportId?: string;
}

export type Feedback =
  | { type: Exclude<FeedbackType, 'bounced'>; evidence?: BounceEvidence }
  | { type: Extract<FeedbackType, 'bounced'>; bounceType: BounceType; evidence?: BounceEvidence };
