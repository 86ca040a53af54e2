// The parts of an Amazon SNS message (SES notifications arrive through SNS) that are a closed set.
export const SNS_MESSAGE_TYPES = [
  'Notification',
  'SubscriptionConfirmation',
  'UnsubscribeConfirmation',
] as const;
export type SnsMessageType = (typeof SNS_MESSAGE_TYPES)[number];

/**
 * What receiving an SNS message did; `undetermined`: its Message-ID named more than one email
 * for a recipient, and none of them was changed.
 */
export const SNS_OUTCOMES = ['confirmed', 'applied', 'ignored', 'undetermined'] as const;
export type SnsOutcome = (typeof SNS_OUTCOMES)[number];

export const SNS_SIGNATURE_VERSIONS = ['1', '2'] as const;
export type SnsSignatureVersion = (typeof SNS_SIGNATURE_VERSIONS)[number];

/** The digest each signature version signs with. */
export const SNS_SIGNATURE_ALGORITHMS = {
  '1': 'RSA-SHA1',
  '2': 'RSA-SHA256',
} as const satisfies Record<SnsSignatureVersion, string>;
