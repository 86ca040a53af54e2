import {
  CONTACT_UPSERT_CTES,
  contactUpsertParams,
  type ContactUpsertRow,
} from './contact-upsert.sql.js';
import type { AcceptedEmailStatus, EmailStatus } from '../../domain/sending/email-status.pure.js';
import type { EmailType } from '../../domain/sending/email-type.pure.js';
import {
  blockedReasonSql,
  insertEmailsSql,
  outboxStatusSql,
  suppressionJoinSql,
  templateVariablesSql,
} from './email-outbox.sql.js';
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

/** Built once: the statement text is the same for every send (and prepared by name). */
const QUEUE_EMAIL_SQL = `${CONTACT_UPSERT_CTES},
     queued AS (
       ${insertEmailsSql({
         values: {
           id: '$5::uuid',
           project_id: '$2::uuid',
           contact_id: 'f.id',
           template_id: '$6::uuid',
           domain_id: '$7::uuid',
           to_address: 'f.email',
           to_name: '$8',
           from_address: '$9',
           from_name: '$10',
           reply_to: '$11',
           subject: '$12',
           body: '$13',
           type: '$14',
           status: outboxStatusSql('r.reason'),
           headers: '$15::jsonb',
           variables: templateVariablesSql({
             data: 'f.data',
             extra: '$16::jsonb',
             email: 'f.email',
             id: 'f.id',
           }),
           attachment_ids: '$17::uuid[]',
           suppression_reason: 'r.reason',
           delivery_queue: '$18',
           created_at: 'now()',
         },
         from: `FROM flagged f
                ${suppressionJoinSql({ projectId: '$2::uuid', email: 'f.email' })}
                CROSS JOIN LATERAL (SELECT ${blockedReasonSql({
                  unsubscribedBlocks: "$14 = 'MARKETING'",
                  subscribed: 'f.subscribed',
                })} AS reason) r`,
         returning: 'id, contact_id, status',
       })}
     )
     SELECT q.contact_id, f.email, q.id AS email_id, q.status
       FROM queued q JOIN flagged f ON f.id = q.contact_id`;

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
    QUEUE_EMAIL_SQL,
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

const QUEUE_EXECUTION_EMAIL_SQL = `WITH queued AS (
       ${insertEmailsSql({
         values: {
           id: '$1::uuid',
           project_id: '$2::uuid',
           contact_id: 'c.id',
           template_id: 't.id',
           domain_id: '$5::uuid',
           to_address: 'c.email',
           from_address: 't.from_address',
           from_name: 't.from_name',
           reply_to: 't.reply_to',
           subject: 't.subject',
           body: 't.body',
           type: 't.type',
           status: outboxStatusSql('r.reason'),
           headers: "'{}'::jsonb",
           variables: templateVariablesSql({
             data: 'c.data',
             extra: '$6::jsonb',
             email: 'c.email',
             id: 'c.id',
           }),
           attachment_ids: "'{}'::uuid[]",
           suppression_reason: 'r.reason',
           delivery_queue: '$7',
           created_at: 'now()',
           workflow_id: '$8::uuid',
           execution_id: '$9::uuid',
           step_id: '$10::uuid',
         },
         from: `FROM contacts c
                JOIN templates t ON t.id = $4::uuid AND t.project_id = $2::uuid
                ${suppressionJoinSql({ projectId: '$2::uuid', email: 'c.email' })}
                CROSS JOIN LATERAL (SELECT ${blockedReasonSql({
                  unsubscribedBlocks: "t.type = 'MARKETING'",
                  subscribed: 'c.subscribed',
                })} AS reason) r
               WHERE c.id = $3::uuid AND c.project_id = $2::uuid`,
         onConflict:
           'ON CONFLICT (execution_id, step_id) WHERE execution_id IS NOT NULL DO NOTHING',
         returning: 'id, status',
       })})
     SELECT id, status FROM queued
     UNION ALL
     SELECT id, status FROM emails WHERE execution_id = $9::uuid AND step_id = $10::uuid
     LIMIT 1`;

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
    QUEUE_EXECUTION_EMAIL_SQL,
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
