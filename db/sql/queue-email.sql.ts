import {
  CONTACT_UPSERT_CTES,
  contactUpsertParams,
  type ContactUpsertRow,
} from './contact-upsert.sql.js';
import type { AcceptedEmailStatus, EmailStatus } from '../../domain/sending/email-status.pure.js';
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

/**
 * Writes the email a workflow's SEND_EMAIL step sends to its execution's contact, from a
 * template, once per execution and step: a repeated call answers the email written the first
 * time. SUPPRESSED as for sends (the suppression list; marketing mail to an unsubscribed contact).
 * Answers undefined when the contact or the template is gone.
 */
export async function queueExecutionEmail(
  sql: Sql,
  {
    id,
    projectId,
    contactId,
    templateId,
    domainId,
    variables,
    deliveryQueue,
    workflowId,
    executionId,
    stepId,
  }: {
    id: string;
    projectId: string;
    contactId: string;
    templateId: string;
    domainId: string;
    /** Template variables on top of the contact's data (and its email and id). */
    variables: Record<string, unknown>;
    deliveryQueue: string;
    workflowId: string;
    executionId: string;
    stepId: string;
  },
): Promise<{ id: string; status: EmailStatus } | undefined> {
  const [row] = await sql.query<{ id: string; status: EmailStatus }>(
    `WITH queued AS (
       INSERT INTO emails (id, project_id, contact_id, template_id, domain_id, to_address, to_name,
                           from_address, from_name, reply_to, subject, body, type, status, headers,
                           variables, attachment_ids, suppression_reason, delivery_queue, created_at,
                           workflow_id, execution_id, step_id)
       SELECT $1::uuid, $2::uuid, c.id, t.id, $5::uuid, c.email, NULL, t.from_address, t.from_name,
              t.reply_to, t.subject, t.body, t.type,
              CASE WHEN r.reason IS NULL THEN 'QUEUED' ELSE 'SUPPRESSED' END, '{}'::jsonb,
              c.data || $6::jsonb || jsonb_build_object('email', c.email, 'id', c.id,
                'svc_id', c.id, 'svc_email', c.email),
              '{}'::uuid[], r.reason, $7, now(), $8::uuid, $9::uuid, $10::uuid
         FROM contacts c
         JOIN templates t ON t.id = $4::uuid AND t.project_id = $2::uuid
         CROSS JOIN LATERAL (
           SELECT coalesce(
             (SELECT s.reason FROM suppressions s WHERE s.project_id = $2::uuid AND s.email = c.email),
             CASE WHEN t.type = 'MARKETING' AND NOT c.subscribed THEN 'unsubscribed' END) AS reason) r
        WHERE c.id = $3::uuid AND c.project_id = $2::uuid
       ON CONFLICT (execution_id, step_id) WHERE execution_id IS NOT NULL DO NOTHING
       RETURNING id, status)
     SELECT id, status FROM queued
     UNION ALL
     SELECT id, status FROM emails WHERE execution_id = $9::uuid AND step_id = $10::uuid
     LIMIT 1`,
    [
      id,
      projectId,
      contactId,
      templateId,
      domainId,
      JSON.stringify(variables),
      deliveryQueue,
      workflowId,
      executionId,
      stepId,
    ],
    'queue-execution-email',
  );
  return row;
}

/** The email an execution's step queued, if it did (one per execution and step). */
export async function findExecutionStepEmail(
  sql: Sql,
  { executionId, stepId }: { executionId: string; stepId: string },
): Promise<{ id: string; status: EmailStatus } | undefined> {
  const [row] = await sql.query<{ id: string; status: EmailStatus }>(
    'SELECT id, status FROM emails WHERE execution_id = $1 AND step_id = $2',
    [executionId, stepId],
  );
  return row;
}
