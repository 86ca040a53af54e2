import { createHmac } from 'node:crypto';
import {
  countRecentSoftBounces,
  lockEmailForFeedback,
  lockEmailsByMessageId,
  markEmailBounced,
  markEmailComplained,
  markEmailDelivered,
  markEmailSoftBounced,
  suppressAddress,
  type FeedbackEmailRow,
} from '../../db/sql/emails.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { updateContact } from '../contacts/contacts.service.js';
import { DomainError } from '../shared/errors.js';
import type { FetchText } from '../shared/ports.js';
import { constantTimeEqual } from '../shared/secrets.js';
import { bouncePolicyOf, type SuppressionReason } from './bounce-policy.pure.js';
import type { BounceEvidence, Feedback } from './delivery-feedback.pure.js';
import { recordEmailEvent } from './email-events.js';
import { matchReportedEmails, reportedAddresses, type ReportMatch } from './feedback-match.pure.js';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** What receiving reports from the mail infrastructure needs. */
export interface FeedbackSettings {
  sql: Sql;
  /** Signs POST /webhooks/email (EMAIL_WEBHOOK_SECRET). */
  webhookSecret: string;
  /** Where SNS signing certificates and subscription confirmations may be fetched from. */
  snsUrlPattern: RegExp;
  fetchText: FetchText;
}

/**
 * Checks `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` made with
 * EMAIL_WEBHOOK_SECRET. Old timestamps are refused so a captured request cannot be replayed.
 */
export function verifyWebhookSignature({
  header,
  rawBody,
  secret,
  now = Date.now(),
}: {
  header: string;
  rawBody: string;
  secret: string;
  now?: number;
}): void {
  const parts = new Map(header.split(',').map((p) => p.trim().split('=') as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  if (
    !Number.isInteger(t) ||
    Math.abs(now / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS ||
    !constantTimeEqual(v1, expected)
  ) {
    throw new DomainError('UNAUTHORIZED', 'Invalid webhook signature', {
      suggestion:
        'Sign "<t>.<raw body>" with EMAIL_WEBHOOK_SECRET (HMAC-SHA256, hex) and send X-Signature: t=<t>,v1=<signature>.',
    });
  }
}

/** What a suppression keeps of the bounce that caused it, besides its source. */
const detailOf = ({
  code,
  status,
  diagnostic,
  reportId,
}: BounceEvidence): Record<string, unknown> => ({
  ...(code !== undefined && { code }),
  ...(status !== undefined && { status }),
  ...(diagnostic !== undefined && { diagnostic }),
  ...(reportId !== undefined && { reportId }),
});

/** What applying a report did: whether an email changed, and whether a part was undetermined. */
export interface FeedbackOutcome {
  applied: boolean;
  /** The Message-ID named more than one email for a recipient (or, with none, in all). */
  undetermined: boolean;
}

/**
 * What the mail infrastructure reports about a sent email. Each state change happens once (a
 * retried callback finds it done and records nothing more). A complaint, and a hard bounce
 * unless the project's bounce policy says otherwise, puts the address on the project's
 * suppression list (with the evidence) and unsubscribes the contact; soft bounces suppress the
 * address once the policy's count of them within its window is reached.
 *
 * An email id names its email. A Message-ID is matched with the report's recipients, if it names
 * any (matchReportedEmails): the report is applied to each recipient's email once, and never to
 * an email it cannot tell apart from another.
 */
export async function applyDeliveryFeedback({
  sql,
  emailId,
  messageId,
  recipients = [],
  feedback,
}: {
  sql: Sql;
  emailId?: string;
  messageId?: string;
  /** The recipients the report is about, as it writes them (used with messageId). */
  recipients?: readonly string[];
  feedback: Feedback;
}): Promise<FeedbackOutcome> {
  return sql.transaction(async (tx) => {
    const email = emailId === undefined ? undefined : await lockEmailForFeedback(tx, { emailId });
    let match: ReportMatch<FeedbackEmailRow> = {
      emails: email ? [email] : [],
      undetermined: false,
    };
    // An id that names no email leaves the Message-ID, if the report gives one too.
    if (!email && messageId !== undefined) {
      const addresses = reportedAddresses(recipients);
      const candidates = await lockEmailsByMessageId(tx, { messageId, recipients: addresses });
      match = matchReportedEmails({ candidates, recipients: addresses });
    }
    let applied = false;
    // In contact order: the contact rows and event summaries each email's change locks are then
    // taken in one order by every report, so two reports about shared recipients cannot deadlock.
    const byContact = [...match.emails].sort((x, y) =>
      (x.contact_id ?? '') < (y.contact_id ?? '')
        ? -1
        : (x.contact_id ?? '') > (y.contact_id ?? '')
          ? 1
          : 0,
    );
    for (const target of byContact) {
      if ((await applyFeedbackToEmail({ tx, email: target, feedback })).applied) applied = true;
    }
    return { applied, undetermined: match.undetermined };
  });
}

/**
 * applyDeliveryFeedback's work on an email already locked in `tx` by lockEmailForFeedback (a
 * report read at the return path locks it first, to read its recipient).
 */
export async function applyFeedbackToEmail({
  tx,
  email,
  feedback,
}: {
  tx: Sql;
  email: FeedbackEmailRow;
  feedback: Feedback;
}): Promise<{ applied: boolean }> {
  if (feedback.type === 'delivered') {
    const changed = await markEmailDelivered(tx, { emailId: email.id });
    if (changed) await recordEmailEvent(tx, email, 'email.delivered');
    return { applied: changed };
  }
  const { evidence } = feedback;
  const policy = bouncePolicyOf(email.bounce_policy);
  const suppress = (reason: SuppressionReason) =>
    suppressAddress(tx, {
      projectId: email.project_id,
      email: email.to_address,
      reason,
      source: evidence?.source ?? null,
      detail: evidence ? detailOf(evidence) : null,
      emailId: email.id,
    });
  if (feedback.type === 'bounced' && feedback.bounceType === 'soft') {
    if (!(await markEmailSoftBounced(tx, { emailId: email.id }))) return { applied: false };
    await recordEmailEvent(tx, email, 'email.bounced', { bounceType: 'soft', ...evidence });
    const recent = await countRecentSoftBounces(tx, {
      projectId: email.project_id,
      email: email.to_address,
      days: policy.softBounceWindowDays,
    });
    if (recent >= policy.softBounceLimit) await suppress('soft_bounce');
    return { applied: true };
  }
  const changed =
    feedback.type === 'bounced'
      ? await markEmailBounced(tx, { emailId: email.id })
      : await markEmailComplained(tx, { emailId: email.id });
  if (!changed) return { applied: false };
  const reason = feedback.type === 'bounced' ? 'hard_bounce' : 'complaint';
  if (reason === 'complaint' || policy.suppressHardBounces) {
    await suppress(reason);
    if (email.contact_id) {
      await updateContact({
        sql: tx,
        projectId: email.project_id,
        contactId: email.contact_id,
        subscribed: false,
        source: reason,
      });
    }
  }
  await recordEmailEvent(
    tx,
    email,
    feedback.type === 'bounced' ? 'email.bounced' : 'email.complained',
    feedback.type === 'bounced' ? { bounceType: 'hard', ...evidence } : { ...evidence },
  );
  return { applied: true };
}

/** A signed report on POST /webhooks/email: the signature is checked, then the report applied. */
export async function receiveDeliveryReport({
  sql,
  webhookSecret,
  signature,
  rawBody,
  emailId,
  messageId,
  recipient,
  feedback,
}: Pick<FeedbackSettings, 'sql' | 'webhookSecret'> & {
  /** The X-Signature header. */
  signature: string;
  rawBody: string;
  emailId?: string;
  messageId?: string;
  /** The address the report is about, which a Message-ID is matched with. */
  recipient?: string;
  feedback: Feedback;
}): Promise<FeedbackOutcome> {
  verifyWebhookSignature({ header: signature, rawBody, secret: webhookSecret });
  return applyDeliveryFeedback({
    sql,
    emailId,
    messageId,
    recipients: recipient === undefined ? [] : [recipient],
    feedback,
  });
}
