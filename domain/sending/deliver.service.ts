import { convert as htmlToText } from 'html-to-text';
import type { Sql } from '../../db/sql/sql.js';
import { decryptSecret } from '../shared/encryption.js';
import { MailDeliveryError, type Mailer } from '../shared/ports.js';
import { renderTemplate } from '../templates/template-engine.js';

interface EmailRow {
  id: string;
  project_id: string;
  contact_id: string | null;
  template_id: string | null;
  status: string;
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

async function recordEmailEvent(
  sql: Sql,
  row: EmailRow,
  name: string,
  extra: Record<string, unknown>,
): Promise<void> {
  if (!row.contact_id) return;
  await sql.query(
    `INSERT INTO events (id, project_id, contact_id, name, data, created_at) VALUES (uuid_generate_v7(), $1, $2, $3, $4, now())`,
    [
      row.project_id,
      row.contact_id,
      name,
      JSON.stringify({
        emailId: row.id,
        subject: row.subject,
        templateId: row.template_id ?? undefined,
        ...extra,
      }),
    ],
  );
}

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
export async function deliverEmail({
  sql,
  mailer,
  emailId,
  encryptionKey,
}: {
  sql: Sql;
  mailer: Mailer;
  emailId: string;
  encryptionKey: string;
}): Promise<DeliveryOutcome> {
  const [row] = await sql.query<EmailRow>(
    `SELECT e.*, d.domain, d.selector, d.dkim_private_key
       FROM emails e LEFT JOIN domains d ON d.id = e.domain_id WHERE e.id = $1`,
    [emailId],
  );
  if (!row || row.status !== 'QUEUED') return 'SKIPPED';

  let subject: string;
  let html: string;
  try {
    subject = renderTemplate(row.subject, row.variables, { escape: false });
    html = renderTemplate(row.body, row.variables);
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
  const senderDomain = row.domain ?? row.from_address.split('@')[1] ?? 'localhost';
  const messageId = `<${row.id}@${senderDomain}>`;
  try {
    await mailer.send({
      from: row.from_name ? { name: row.from_name, address: row.from_address } : row.from_address,
      to: row.to_name ? { name: row.to_name, address: row.to_address } : row.to_address,
      subject,
      html,
      text: htmlToText(html, { wordwrap: 78 }),
      replyTo: row.reply_to ?? undefined,
      headers: row.headers,
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
            }
          : undefined,
    });
  } catch (error) {
    if (error instanceof MailDeliveryError && error.permanent) {
      await failEmail({ sql, emailId, error: error.message });
      return 'FAILED';
    }
    throw error;
  }
  await sql.transaction(async (tx) => {
    const [sent] = await tx.query<EmailRow>(
      `UPDATE emails SET status = 'SENT', sent_at = now(), message_id = $2, subject = $3 WHERE id = $1 AND status = 'QUEUED' RETURNING *`,
      [emailId, messageId, subject],
    );
    if (sent) await recordEmailEvent(tx, sent, 'email.sent', { messageId });
  });
  return 'SENT';
}
