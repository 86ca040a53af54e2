import { createPrivateKey, type KeyObject } from 'node:crypto';
import { compile as compileHtmlToText } from 'html-to-text';
import { findAttachments } from '../../db/sql/attachments.sql.js';
import {
  findEmailError,
  markEmailFailed,
  markEmailSent,
  recordEmailRefusal,
  takeEmailForRetry,
  type DeliverableEmail,
} from '../../db/sql/email-delivery.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { decryptSecret } from '../shared/encryption.js';
import { MailDeliveryError, type Mailer, type OutgoingMessage } from '../shared/ports.js';
import { confirmationLink } from '../contacts/confirmation-link.js';
import { renderTemplate } from '../templates/template-engine.js';
import { signLinkToken } from '../tracking/tokens.js';
import { returnPathAddress } from './return-path.js';
import { KEPT_MESSAGE_ID_HEADER } from './send-request.pure.js';
import { addOpenPixel, rewriteLinks } from '../tracking/rewrite-links.pure.js';
import type { DeliveryOutcome, SmtpAnswer } from './email-status.pure.js';
import type { BounceEvidence } from './delivery-feedback.pure.js';
import { applyDeliveryFeedback } from './delivery-feedback.service.js';
import { enhancedStatus, permanentRefusalKind, replyCode } from './smtp-refusal.pure.js';
import type { SubscriptionLink } from './link-variables.pure.js';
import { RECORD_SENT_RETRY_MS } from './sent-recorder.js';

// Compiled once: converting with fresh options compiles their selectors on every call.
const htmlToText = compileHtmlToText({ wordwrap: 78 });

// Parsed DKIM keys by their encrypted form (unique per domain and key): signing with a parsed key
// is about four times faster than with PEM text, which is parsed on every signature. Bounded.
const DKIM_KEYS_MAX = 1000;
const dkimKeys = new Map<string, KeyObject>();

function dkimKey(encrypted: string, encryptionKey: string): KeyObject {
  let key = dkimKeys.get(encrypted);
  if (!key) {
    key = createPrivateKey(decryptSecret(encrypted, encryptionKey));
    if (dkimKeys.size >= DKIM_KEYS_MAX) dkimKeys.delete(dkimKeys.keys().next().value as string);
    dkimKeys.set(encrypted, key);
  }
  return key;
}

// DKIM covers the unsubscribe headers too (RFC 8058 asks for it).
const SIGNED_HEADERS =
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:List-Unsubscribe:List-Unsubscribe-Post';

/** An email that will not be delivered, and why. */
export interface EmailFailure {
  sql: Sql;
  emailId: string;
  error: string;
}

/** Marks a queued email FAILED (render error, permanent SMTP refusal, retries exhausted). */
export async function failEmail({ sql, emailId, error }: EmailFailure): Promise<void> {
  await markEmailFailed(sql, {
    emailId,
    error: error.slice(0, 1000),
    eventError: error.slice(0, 200),
  });
}

/** Whether the email's subject or body can read the template variable `name`. */
const usesVariable = (row: DeliverableEmail, name: SubscriptionLink): boolean =>
  row.body.includes(name) || row.subject.includes(name);

/**
 * Renders an email into the message SMTP gets: template variables with the contact's
 * subscription links, tracked links and the open pixel as chosen when it was queued, the one-click
 * unsubscribe headers on marketing mail, a text part and the domain's DKIM key. A template that
 * fails to render answers `failed` with the reason.
 */
export async function composeMessage({
  sql,
  row,
  encryptionKey,
  publicUrl,
}: {
  sql: Sql;
  row: DeliverableEmail;
  encryptionKey: string;
  publicUrl: string;
}): Promise<{ message: OutgoingMessage; subject: string } | { failed: string }> {
  const subscription = row.contact_id
    ? signLinkToken({ k: 'u', c: row.contact_id, p: row.project_id, e: row.id }, encryptionKey)
    : undefined;
  const links: Partial<Record<SubscriptionLink, string>> = subscription
    ? {
        unsubscribeUrl: `${publicUrl}/unsubscribe/${subscription}`,
        subscribeUrl: `${publicUrl}/subscribe/${subscription}`,
        manageUrl: `${publicUrl}/manage/${subscription}`,
        // Confirms a contact that waits for its double opt-in confirmation; nothing otherwise.
        // Signed only for a template that names it (most never do).
        ...(usesVariable(row, 'confirmUrl') && {
          confirmUrl: confirmationLink({
            secret: encryptionKey,
            publicUrl,
            projectId: row.project_id,
            contactId: row.contact_id as string,
          }),
        }),
      }
    : {};
  const variables = { ...row.variables, ...links };
  let subject: string;
  let html: string;
  try {
    subject = renderTemplate(row.subject, variables, { escape: false });
    html = renderTemplate(row.body, variables);
  } catch (error) {
    return { failed: `Render failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const attachments = row.attachment_ids.length
    ? await findAttachments(sql, { ids: row.attachment_ids })
    : [];
  if (row.click_tracking) {
    html = rewriteLinks(
      html,
      (url) => `${publicUrl}/t/c/${signLinkToken({ k: 'c', e: row.id, u: url }, encryptionKey)}`,
      (url) => url.startsWith(`${publicUrl}/`),
    );
  }
  // The text part has the HTML part's (tracked) links but never the pixel: a text-only reader
  // would see its address, and following it would count an open.
  const text = htmlToText(html);
  if (row.open_tracking) {
    html = addOpenPixel(
      html,
      `${publicUrl}/t/o/${signLinkToken({ k: 'o', e: row.id }, encryptionKey)}`,
    );
  }
  // A message submitted over SMTP keeps its own Message-ID, queued among its headers.
  const { [KEPT_MESSAGE_ID_HEADER]: keptMessageId, ...headers } = row.headers;
  if (row.type === 'MARKETING' && links.unsubscribeUrl) {
    headers['List-Unsubscribe'] = `<${links.unsubscribeUrl}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  const senderDomain = row.domain ?? row.from_address.split('@')[1] ?? 'localhost';
  return {
    subject,
    message: {
      from: row.from_name ? { name: row.from_name, address: row.from_address } : row.from_address,
      to: row.to_name ? { name: row.to_name, address: row.to_address } : row.to_address,
      subject,
      html,
      text,
      replyTo: row.reply_to ?? undefined,
      headers,
      messageId: keptMessageId ?? `<${row.id}@${senderDomain}>`,
      // Bounces and complaints come back to an address naming this email; until the domain's
      // return-path MX is in place, they go to the From address as before.
      envelope: row.return_path_host
        ? {
            from: returnPathAddress({
              emailId: row.id,
              host: row.return_path_host,
              secret: encryptionKey,
            }),
            to: row.to_address,
          }
        : undefined,
      attachments: attachments.map((a) => ({
        filename: a.filename,
        content: a.content,
        contentType: a.content_type,
        cid: a.content_id ?? undefined,
        contentDisposition: a.disposition,
      })),
      dkim:
        row.domain && row.selector && row.dkim_private_key
          ? {
              domainName: row.domain,
              keySelector: row.selector,
              privateKey: dkimKey(row.dkim_private_key, encryptionKey),
              headerFieldNames: SIGNED_HEADERS,
            }
          : undefined,
    },
  };
}

/** A relay's refusal (its words, its reply code when it gave one) as its bounce's evidence. */
const relayEvidence = ({
  message,
  responseCode,
}: {
  message: string;
  responseCode?: number;
}): BounceEvidence => ({
  source: 'relay',
  code: responseCode,
  status: enhancedStatus(message),
  diagnostic: message.slice(0, 500),
});

/**
 * An email whose retries ran out (temporary refusals for a day): FAILED with the last reason,
 * and a soft bounce of the address it never reached, with the relay's last answer as evidence
 * (its reply code when it gave one, the enhanced status in its words).
 */
export async function giveUpOnEmail({
  sql,
  emailId,
  error,
  responseCode,
}: EmailFailure & { responseCode?: number }): Promise<void> {
  // A window that closed while an attempt was still under way reports its timeout, not a
  // relay's answer: then the last refusal kept on the email (recordEmailRefusal) is the reason.
  let answer = { message: error, responseCode };
  if (responseCode === undefined && replyCode(error) === undefined) {
    const kept = await findEmailError(sql, { emailId });
    if (kept && replyCode(kept) !== undefined)
      answer = { message: kept, responseCode: replyCode(kept) };
  }
  await failEmail({ sql, emailId, error: answer.message });
  await applyDeliveryFeedback({
    sql,
    emailId,
    feedback: {
      type: 'bounced',
      bounceType: 'soft',
      evidence: relayEvidence({
        message: answer.message,
        responseCode: answer.responseCode ?? replyCode(answer.message),
      }),
    },
  });
}

/** An email to hand to the mail server, and what hands it over. */
interface EmailHandOver {
  sql: Sql;
  mailer: Mailer;
  emailId: string;
}

/**
 * Hands a composed email to SMTP and records a refusal: on a permanent one BOUNCED (a hard
 * bounce: suppressed, unsubscribed, `email.bounced` with the relay's code and words) when the
 * address does not exist, else FAILED. Answers ACCEPTED when the server took it, which the caller
 * records (SENT and `email.sent`). A temporary failure (4xx, timeout, dropped connection) throws
 * MailDeliveryError and leaves the email QUEUED for a retry.
 */
export async function sendComposed({
  sql,
  mailer,
  emailId,
  message,
}: EmailHandOver & { message: OutgoingMessage }): Promise<SmtpAnswer> {
  try {
    await mailer.send(message);
  } catch (error) {
    if (error instanceof MailDeliveryError && error.permanent) {
      // A refused sender (a From domain the relay will not take) bounces no recipient.
      if (!error.senderRefused && permanentRefusalKind(error.message) === 'hard_bounce') {
        await applyDeliveryFeedback({
          sql,
          emailId,
          feedback: { type: 'bounced', bounceType: 'hard', evidence: relayEvidence(error) },
        });
        return 'BOUNCED';
      }
      await failEmail({ sql, emailId, error: error.message });
      return 'FAILED';
    }
    throw error;
  }
  return 'ACCEPTED';
}

/**
 * sendComposed for one email on its own, recording SENT (with `email.sent`) the moment the
 * server accepts: a connection is held before the SMTP transaction, so one statement records it
 * without waiting for the pool. That gap, a round trip, is the only one in which a crash leads to
 * a second send (no SMTP client can close it). The delivery lanes record their emails in groups
 * instead (sent-recorder.ts).
 */
export async function sendAndRecord({
  sql,
  mailer,
  emailId,
  composed,
}: {
  sql: Sql;
  mailer: Mailer;
  emailId: string;
  composed: { message: OutgoingMessage; subject: string };
}): Promise<Exclude<DeliveryOutcome, 'SKIPPED'>> {
  const { message, subject } = composed;
  const sent = { emailId, messageId: message.messageId ?? null, subject };
  const outcome = await sql.connection<
    Exclude<DeliveryOutcome, 'SKIPPED'> | { unrecorded: unknown }
  >(async (held) => {
    const answer = await sendComposed({ sql: held, mailer, emailId, message });
    if (answer !== 'ACCEPTED') return answer;
    try {
      await markEmailSent(held, sent);
    } catch (error) {
      return { unrecorded: error };
    }
    return 'SENT';
  });
  if (typeof outcome === 'string') return outcome;
  // The server accepted it but the commit failed (the database stopping or restarting): sending
  // it again would be a second copy, so the commit is retried, on a fresh connection, while the
  // lease (30 s, renewed) keeps the email in this lane's hands.
  const giveUpAt = Date.now() + RECORD_SENT_RETRY_MS;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      await markEmailSent(sql, sent);
      return 'SENT';
    } catch (error) {
      if (Date.now() > giveUpAt) throw error;
    }
  }
}

/**
 * Delivers one email from its own send-email workflow (an email whose first attempt failed for
 * a while). An email that is no longer QUEUED is left alone, so a retried activity never sends it
 * twice once it was recorded SENT. Temporary SMTP failures throw, for the workflow's backoff.
 */
export async function deliverEmail({
  sql,
  mailer,
  emailId,
  encryptionKey,
  publicUrl,
}: EmailHandOver & { encryptionKey: string; publicUrl: string }): Promise<DeliveryOutcome> {
  const row = await takeEmailForRetry(sql, { emailId });
  if (!row || row.status !== 'QUEUED') return 'SKIPPED';
  const composed = await composeMessage({ sql, row, encryptionKey, publicUrl });
  if ('failed' in composed) {
    await failEmail({ sql, emailId, error: composed.failed });
    return 'FAILED';
  }
  try {
    return await sendAndRecord({ sql, mailer, emailId, composed });
  } catch (error) {
    // Refused for now again: its words are kept on the email (the last reason, and its soft
    // bounce's evidence should the window close), then the attempt fails to be retried.
    if (error instanceof MailDeliveryError && !error.permanent) {
      await recordEmailRefusal(sql, { emailId, error: error.message.slice(0, 1000) }).catch(
        () => undefined,
      );
    }
    throw error;
  }
}
