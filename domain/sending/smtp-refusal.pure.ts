// What a relay's permanent (5xx) answer means for the address it refused.

/**
 * A permanent refusal is a hard bounce when the relay says the address cannot receive mail: its
 * enhanced status (RFC 3463) is 5.1.x (no such mailbox or domain) or 5.2.1 (mailbox disabled).
 * Any other refusal (5.7.x policy, our IP listed, a full mailbox, no enhanced code) fails that
 * email and suppresses nobody.
 */
export const REFUSAL_KINDS = ['hard_bounce', 'failed'] as const;
export type RefusalKind = (typeof REFUSAL_KINDS)[number];

/** The first enhanced status code in an SMTP answer (`550 5.1.1 <a@b>: user unknown` -> 5.1.1). */
export function enhancedStatus(answer: string): string | undefined {
  return /(?<![\d.])[245]\.\d{1,3}\.\d{1,3}(?!\.?\d)/.exec(answer)?.[0];
}

/**
 * The reply code of an SMTP answer as an error message carries it: the 4xx or 5xx that starts
 * the answer, or that follows nodemailer's preamble (`Can't send mail - all recipients were
 * rejected: 452 4.2.2 ...`). Undefined when there is none (a timeout, a dropped connection).
 */
export function replyCode(answer: string): number | undefined {
  const found = /(?:^|:\s)([45]\d\d)(?=[ -]|$)/.exec(answer)?.[1];
  return found === undefined ? undefined : Number(found);
}

export function permanentRefusalKind(answer: string): RefusalKind {
  const status = enhancedStatus(answer);
  if (!status) return 'failed';
  const [klass, subject, detail] = status.split('.');
  if (klass !== '5') return 'failed';
  if (subject === '1') return 'hard_bounce';
  return subject === '2' && detail === '1' ? 'hard_bounce' : 'failed';
}
