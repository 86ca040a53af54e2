/** What a recipient did with an email; the first moment of each is kept on the email row. */
export const EMAIL_ENGAGEMENTS = ['opened', 'clicked', 'unsubscribed'] as const;
export type EmailEngagement = (typeof EMAIL_ENGAGEMENTS)[number];
