import { convert as htmlToText } from 'html-to-text';
import type { Sql } from '../../db/sql/sql.js';
import { decryptSecret } from '../shared/encryption.js';
import { recordEmailEvent } from './email-events.js';
import { MailDeliveryError, type Mailer } from '../shared/ports.js';
import { renderTemplate } from '../templates/template-engine.js';
import { signLinkToken } from '../tracking/tokens.js';
import { addOpenPixel, rewriteLinks } from '../tracking/rewrite-links.pure.js';

interface EmailRow {
  id: string;
  project_id: string;
  contact_id: string | null;
  template_id: string | null;
  status: string;
  type: 'TRANSACTIONAL' | 'MARKETING';
  tracking_enabled: boolean;
  to_address: string;
  to_name: string | null;
  from_address: string;
  from_name: string | null;
  reply_to: string | null;
  subject: string;
  body: string;
  headers: Record<string, string>;
  variables: Record<string, unknown>;
  attachment_ids: string[];
  domain: string | null;
  selector: string | null;
  dkim_private_key: string | null;
}

export type DeliveryOutcome = 'SENT' | 'FAILED' | 'SKIPPED';

/** Marks a queued email FAILED (render error, permanent SMTP refusal, retries exhausted). */
export async function failEmail({
  sql,
  emailId,
  error,
}: {
  sql: Sql;
  emailId: string;
  error: string;
}): Promise<void> {
  await sql.transaction(async (tx) => {
    const [row] = await tx.query<EmailRow>(
      `UPDATE emails SET status = 'FAILED', error = $2 WHERE id = $1 AND status = 'QUEUED' RETURNING *`,
      [emailId, error.slice(0, 1000)],
    );
    if (row) await recordEmailEvent(tx, row, 'email.failed', { error: error.slice(0, 200) });
  });
}

/**
 * Renders, DKIM-signs and hands one email to SMTP. An email that is no longer QUEUED is left
 * alone, so a retried activity never sends it twice once it was recorded SENT. Temporary SMTP
 * failures throw (the workflow retries with backoff); permanent ones mark the email FAILED.
 */
// DKIM covers the unsubscribe headers too (RFC 8058 asks for it).
const SIGNED_HEADERS =
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:List-Unsubscribe:List-Unsubscribe-Post';

export async function deliverEmail({
  sql,
  mailer,
  emailId,
  encryptionKey,
  publicUrl,
}: {
  sql: Sql;
  mailer: Mailer;
  emailId: string;
  encryptionKey: string;
  publicUrl: string;
}): Promise<DeliveryOutcome> {
  const [row] = await sql.query<EmailRow>(
    `SELECT e.*, d.domain, d.selector, d.dkim_private_key,
            coalesce((p.settings ->> 'trackingEnabled')::boolean, true) AS tracking_enabled
       FROM emails e JOIN projects p ON p.id = e.project_id LEFT JOIN domains d ON d.id = e.domain_id
      WHERE e.id = $1`,
    [emailId],
  );
  if (!row || row.status !== 'QUEUED') return 'SKIPPED';

  const subscription = row.contact_id
    ? signLinkToken({ k: 'u', c: row.contact_id, p: row.project_id, e: row.id }, encryptionKey)
    : undefined;
  const links = subscription
    ? {
        unsubscribeUrl: `${publicUrl}/unsubscribe/${subscription}`,
        subscribeUrl: `${publicUrl}/subscribe/${subscription}`,
        manageUrl: `${publicUrl}/manage/${subscription}`,
      }
    : {};
  const variables = { ...row.variables, ...links };
  let subject: string;
  let html: string;
  try {
    subject = renderTemplate(row.subject, variables, { escape: false });
    html = renderTemplate(row.body, variables);
  } catch (error) {
    await failEmail({
      sql,
      emailId,
      error: `Render failed: ${error instanceof Error ? error.message : String(error)}`,
    });
    return 'FAILED';
  }
  const attachments = row.attachment_ids.length
    ? await sql.query<{
        filename: string;
        content_type: string;
        content_id: string | null;
        disposition: 'attachment' | 'inline';
        content: Buffer;
      }>(
        'SELECT filename, content_type, content_id, disposition, content FROM attachments WHERE id = ANY($1::uuid[]) ORDER BY id',
        [row.attachment_ids],
      )
    : [];
  if (row.tracking_enabled) {
    html = rewriteLinks(
      html,
      (url) => `${publicUrl}/t/c/${signLinkToken({ k: 'c', e: row.id, u: url }, encryptionKey)}`,
      (url) => url.startsWith(`${publicUrl}/`),
    );
    html = addOpenPixel(
      html,
      `${publicUrl}/t/o/${signLinkToken({ k: 'o', e: row.id }, encryptionKey)}`,
    );
  }
  const headers = { ...row.headers };
  if (row.type === 'MARKETING' && links.unsubscribeUrl) {
    headers['List-Unsubscribe'] = `<${links.unsubscribeUrl}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  const senderDomain = row.domain ?? row.from_address.split('@')[1] ?? 'localhost';
  const messageId = `<${row.id}@${senderDomain}>`;
  // The connection (and a transaction) is taken before the SMTP transaction, so the moment the
  // server accepts, SENT commits without waiting for a pooled connection: that short gap is the
  // only one in which a crash could lead to a second send.
  return sql.transaction(async (tx) => {
    try {
      await mailer.send({
        from: row.from_name ? { name: row.from_name, address: row.from_address } : row.from_address,
        to: row.to_name ? { name: row.to_name, address: row.to_address } : row.to_address,
        subject,
        html,
        text: htmlToText(html, { wordwrap: 78 }),
        replyTo: row.reply_to ?? undefined,
        headers,
        messageId,
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
                privateKey: decryptSecret(row.dkim_private_key, encryptionKey),
                headerFieldNames: SIGNED_HEADERS,
              }
            : undefined,
      });
    } catch (error) {
      if (error instanceof MailDeliveryError && error.permanent) {
        await failEmail({ sql: tx, emailId, error: error.message });
        return 'FAILED';
      }
      throw error;
    }
    const [sent] = await tx.query<EmailRow>(
      `UPDATE emails SET status = 'SENT', sent_at = now(), message_id = $2, subject = $3 WHERE id = $1 AND status = 'QUEUED' RETURNING *`,
      [emailId, messageId, subject],
    );
    if (sent) await recordEmailEvent(tx, sent, 'email.sent', { messageId });
    return 'SENT';
  });
}
