/** What the mail infrastructure reports about a sent email (POST /webhooks/email, SES). */
export const FEEDBACK_TYPES = ['delivered', 'bounced', 'complained'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

/** A hard bounce suppresses the address; a soft one is only recorded. */
export const BOUNCE_TYPES = ['hard', 'soft'] as const;
export type BounceType = (typeof BOUNCE_TYPES)[number];

export type Feedback =
  | { type: Exclude<FeedbackType, 'bounced'> }
  | { type: Extract<FeedbackType, 'bounced'>; bounceType: BounceType };
