import { createHmac } from 'node:crypto';
import type { Sql } from '../../db/sql/sql.js';
import { updateContact } from '../contacts/contacts.service.js';
import { DomainError } from '../shared/errors.js';
import { constantTimeEqual } from '../shared/secrets.js';
import { recordEmailEvent, type EmailEventSource } from './email-events.js';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

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

export type Feedback =
  { type: 'delivered' } | { type: 'bounced'; bounceType: 'hard' | 'soft' } | { type: 'complained' };

interface EmailRow extends EmailEventSource {
  to_address: string;
}

/**
 * What the mail infrastructure reports about a sent email. Each state change happens once (a
 * retried callback finds it done and records nothing more). A hard bounce or a complaint puts
 * the address on the project's suppression list and unsubscribes the contact.
 */
export async function applyDeliveryFeedback({
  sql,
  emailId,
  messageId,
  feedback,
}: {
  sql: Sql;
  emailId?: string;
  messageId?: string;
  feedback: Feedback;
}): Promise<{ applied: boolean }> {
  return sql.transaction(async (tx) => {
    const [email] = await tx.query<EmailRow>(
      `SELECT id, project_id, contact_id, subject, template_id, message_id, to_address FROM emails
        WHERE ($1::uuid IS NOT NULL AND id = $1::uuid) OR ($2::text IS NOT NULL AND message_id = $2::text)
        LIMIT 1 FOR UPDATE`,
      [emailId ?? null, messageId ?? null],
    );
    if (!email) return { applied: false };
    if (feedback.type === 'delivered') {
      const changed = await tx.query(
        `UPDATE emails SET status = 'DELIVERED', delivered_at = now() WHERE id = $1 AND delivered_at IS NULL AND status = 'SENT' RETURNING id`,
        [email.id],
      );
      if (changed.length) await recordEmailEvent(tx, email, 'email.delivered');
      return { applied: changed.length > 0 };
    }
    if (feedback.type === 'bounced' && feedback.bounceType === 'soft') {
      await recordEmailEvent(tx, email, 'email.bounced', { bounceType: 'soft' });
      return { applied: true };
    }
    const column = feedback.type === 'bounced' ? 'bounced_at' : 'complained_at';
    const changed = await tx.query(
      `UPDATE emails SET ${column} = now()${feedback.type === 'bounced' ? ", status = 'BOUNCED'" : ''}
        WHERE id = $1 AND ${column} IS NULL RETURNING id`,
      [email.id],
    );
    if (changed.length === 0) return { applied: false };
    const reason = feedback.type === 'bounced' ? 'hard_bounce' : 'complaint';
    await tx.query(
      `INSERT INTO suppressions (project_id, email, reason) VALUES ($1, $2, $3) ON CONFLICT (project_id, email) DO NOTHING`,
      [email.project_id, email.to_address, reason],
    );
    if (email.contact_id) {
      await updateContact({
        sql: tx,
        projectId: email.project_id,
        contactId: email.contact_id,
        subscribed: false,
        source: reason,
      });
    }
    await recordEmailEvent(
      tx,
      email,
      feedback.type === 'bounced' ? 'email.bounced' : 'email.complained',
      feedback.type === 'bounced' ? { bounceType: 'hard' } : {},
    );
    return { applied: true };
  });
}
