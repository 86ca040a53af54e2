import type { BounceType } from '../sending/delivery-feedback.pure.js';
import { addressOfField, fieldGroups, statusIn } from './report-fields.pure.js';
import type { ReportedFailure } from './report-reading.pure.js';

const DIAGNOSTIC_MAX = 500;

/**
 * A DSN's failures (RFC 3464): per recipient, `Action: failed` with a 5.x.x status is a hard
 * bounce; `delayed`, or a 4.x.x status, a soft one. Delivered, relayed and expanded recipients
 * are no failure. Undefined when no recipient can be read at all.
 */
export function readDeliveryStatus(text: string): ReportedFailure[] | undefined {
  const recipients = fieldGroups(text).filter(
    (group) => group.has('final-recipient') || group.has('original-recipient'),
  );
  if (recipients.length === 0) return undefined;
  const failures: ReportedFailure[] = [];
  for (const group of recipients) {
    const recipient =
      addressOfField(group.get('final-recipient')) ??
      addressOfField(group.get('original-recipient'));
    const action = (group.get('action') ?? '').toLowerCase();
    const status = statusIn(group.get('status'));
    const bounceType = bounceTypeOf(action, status);
    if (!recipient || !bounceType) continue;
    const diagnostic = group.get('diagnostic-code');
    failures.push({
      recipient,
      bounceType,
      ...(status && { status }),
      ...(diagnostic && { diagnostic: diagnostic.slice(0, DIAGNOSTIC_MAX) }),
    });
  }
  return failures;
}

function bounceTypeOf(action: string, status: string | undefined): BounceType | undefined {
  if (action === 'delayed') return 'soft';
  if (action !== 'failed') return undefined;
  if (status?.startsWith('5')) return 'hard';
  if (status?.startsWith('4')) return 'soft';
  return undefined;
}

/** An RFC 5965 feedback report: its type and the recipient it names (often redacted). */
export function readFeedbackReport(
  text: string,
): { feedbackType: string; recipient?: string } | undefined {
  const [fields] = fieldGroups(text);
  const feedbackType = fields?.get('feedback-type')?.toLowerCase();
  if (!fields || !feedbackType) return undefined;
  const recipient = addressOfField(fields.get('original-rcpt-to'));
  return { feedbackType, ...(recipient && { recipient }) };
}
