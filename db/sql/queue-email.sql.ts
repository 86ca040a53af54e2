import {
  CONTACT_UPSERT_CTES,
  contactUpsertParams,
  type ContactUpsertRow,
} from './contact-upsert.sql.js';
import type { AcceptedEmailStatus } from '../../domain/sending/email-status.pure.js';
import type { EmailType } from '../../domain/sending/email-type.pure.js';
import type { Sql } from './sql.js';

export interface SendTemplateRow {
  id: string;
  type: EmailType;
  subject: string;
  body: string;
  from_address: string;
  from_name: string | null;
  reply_to: string | null;
}

/** The template a send names (when it names one) and the project's verified domains, at once. */
export async function findSendContext(
  sql: Sql,
  { projectId, templateId }: { projectId: string; templateId?: string },
): Promise<{
  template: SendTemplateRow | null;
  verifiedDomains: { id: string; domain: string }[];
}> {
  const [row] = await sql.query<{
    template: SendTemplateRow | null;
    domains: { id: string; domain: string }[];
  }>(
    `SELECT (SELECT to_jsonb(t) FROM (
               SELECT id, type, subject, body, from_address, from_name, reply_to
                 FROM templates WHERE id = $2 AND project_id = $1) t) AS template,
            coalesce((SELECT jsonb_agg(jsonb_build_object('id', id, 'domain', domain))
                        FROM domains WHERE project_id = $1 AND status = 'VERIFIED'), '[]') AS domains`,
    [projectId, templateId ?? null],
    'send-context',
  );
  return { template: row?.template ?? null, verifiedDomains: row?.domains ?? [] };
}

export interface QueuedEmailRow {
  id: string;
  templateId: string | null;
  domainId: string;
  toName: string | null;
  fromAddress: string;
  fromName: string | null;
  replyTo: string | null;
  subject: string;
  body: string;
  type: EmailType;
  headers: Record<string, string>;
  /** Template variables on top of the contact's data (and its email and id). */
  variables: Record<string, unknown>;
  attachmentIds: string[];
  deliveryQueue: string;
}

export interface QueuedEmailResult {
  contact_id: string;
  email: string;
  email_id: string;
  status: AcceptedEmailStatus;
}

/**
 * Upserts one recipient as a contact (data rules and subscription events as in upsertContacts)
 * and writes its email row, in ONE statement. The row is SUPPRESSED when the address is on the
 * project's suppression list, or for marketing mail to an unsubscribed contact; otherwise QUEUED.
 */
export async function upsertContactAndQueueEmail(
  sql: Sql,
  {
    projectId,
    contact,
    defaultSubscribed,
    source,
    email,
  }: {
    projectId: string;
    contact: ContactUpsertRow;
    defaultSubscribed: boolean;
    source: string;
    email: QueuedEmailRow;
  },
): Promise<QueuedEmailResult> {
  const [row] = await sql.query<QueuedEmailResult>(
    `${CONTACT_UPSERT_CTES},
     queued AS (
       INSERT INTO emails (id, project_id, contact_id, template_id, domain_id, to_address, to_name,
                           from_address, from_name, reply_to, subject, body, type, status, headers,
                           variables, attachment_ids, suppression_reason, delivery_queue, created_at)
       SELECT $5::uuid, $2::uuid, f.id, $6::uuid, $7::uuid, f.email, $8, $9, $10, $11, $12, $13, $14,
              CASE WHEN r.reason IS NULL THEN 'QUEUED' ELSE 'SUPPRESSED' END, $15::jsonb,
              f.data || $16::jsonb || jsonb_build_object('email', f.email, 'id', f.id,
                'svc_id', f.id, 'svc_email', f.email),
              $17::uuid[], r.reason, $18, now()
         FROM flagged f
         CROSS JOIN LATERAL (
           SELECT coalesce(
             (SELECT s.reason FROM suppressions s WHERE s.project_id = $2::uuid AND s.email = f.email),
             CASE WHEN $14 = 'MARKETING' AND NOT f.subscribed THEN 'unsubscribed' END) AS reason) r
       RETURNING id, contact_id, status
     )
     SELECT q.contact_id, f.email, q.id AS email_id, q.status
       FROM queued q JOIN flagged f ON f.id = q.contact_id`,
    [
      ...contactUpsertParams({ projectId, rows: [contact], defaultSubscribed, source }),
      email.id,
      email.templateId,
      email.domainId,
      email.toName,
      email.fromAddress,
      email.fromName,
      email.replyTo,
      email.subject,
      email.body,
      email.type,
      JSON.stringify(email.headers),
      JSON.stringify(email.variables),
      email.attachmentIds,
      email.deliveryQueue,
    ],
    'queue-email',
  );
  if (!row) throw new Error('The contact and email write returned no row');
  return row;
}
