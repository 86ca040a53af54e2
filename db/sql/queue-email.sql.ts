import {
  CONTACT_UPSERT_CTES,
  contactUpsertParams,
  type ContactUpsertRow,
} from './contact-upsert.sql.js';
import type { BillingCategory } from '../../domain/billing/billing-vocabulary.pure.js';
import type { AcceptedEmailStatus, EmailStatus } from '../../domain/sending/email-status.pure.js';
import type { EmailType } from '../../domain/sending/email-type.pure.js';
import type { TrackingKind } from '../../domain/tracking/tracking-choice.pure.js';
import {
  insertEmailsSql,
  JUDGED_OUTBOX_VALUES,
  judgeRecipientSql,
  templateTrackingLevel,
  templateVariablesSql,
  trackingLevelOf,
  trackingSql,
} from './email-outbox.sql.js';
import { namedParams } from './named-params.js';
import { optInPendingSql } from './opt-in-state.sql.js';
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

/** What a send reads before it writes: its template, the verified domains, the monthly cap. */
export interface SendContext {
  template: SendTemplateRow | null;
  verifiedDomains: { id: string; domain: string }[];
  /** The project's monthly cap of the category asked for; undefined: none (or none asked). */
  cap: number | undefined;
}

/**
 * The send contexts of one project for several sends at once, one per entry of `templateIds`
 * (null: a send naming no template), in one statement: the templates named (another project's
 * or an unknown id reads as none), the project's verified domains and its monthly cap of
 * `capCategory`.
 */
export async function findSendContexts(
  sql: Sql,
  {
    projectId,
    templateIds,
    capCategory,
  }: { projectId: string; templateIds: (string | null)[]; capCategory?: BillingCategory },
): Promise<SendContext[]> {
  const [row] = await sql.query<{
    templates: SendTemplateRow[];
    domains: { id: string; domain: string }[];
    cap: number | null;
  }>(
    `SELECT coalesce((SELECT jsonb_agg(to_jsonb(t)) FROM (
               SELECT id, type, subject, body, from_address, from_name, reply_to
                 FROM templates WHERE id = ANY($2::uuid[]) AND project_id = $1) t), '[]') AS templates,
            coalesce((SELECT jsonb_agg(jsonb_build_object('id', id, 'domain', domain))
                        FROM domains WHERE project_id = $1 AND status = 'VERIFIED'), '[]') AS domains,
            (SELECT monthly_cap FROM billing_caps WHERE project_id = $1 AND category = $3) AS cap`,
    [projectId, [...new Set(templateIds.filter((id) => id !== null))], capCategory ?? null],
    'send-contexts',
  );
  const templates = new Map((row?.templates ?? []).map((t) => [t.id, t]));
  return templateIds.map((id) => ({
    template: (id !== null && templates.get(id)) || null,
    verifiedDomains: row?.domains ?? [],
    cap: row?.cap ?? undefined,
  }));
}

/** The context of one send (findSendContexts for a single template, or none). */
export async function findSendContext(
  sql: Sql,
  {
    projectId,
    templateId,
    capCategory,
  }: { projectId: string; templateId?: string; capCategory?: BillingCategory },
): Promise<SendContext> {
  const [context] = await findSendContexts(sql, {
    projectId,
    templateIds: [templateId ?? null],
    capCategory,
  });
  return context as SendContext;
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
  /** The send's own `tracking`: a kind left out (or null) goes to the template, then the project. */
  tracking?: Partial<Record<TrackingKind, boolean | null>>;
}

/**
 * A send's own values per recipient, by outbox column, read from $5 (a JSON array, one object per
 * recipient with its CONTACT_UPSERT_CTES `ord`) as the rows `sent` (judgeRecipientSql takes `s` and `r`); `opens` and `clicks` are the
 * send's own tracking (NULL where it gives none). `variables` are the caller's, which
 * templateVariablesSql lays over the contact's.
 */
const SEND_COLUMNS = {
  ord: 'int',
  id: 'uuid',
  template_id: 'uuid',
  domain_id: 'uuid',
  to_name: 'text',
  from_address: 'text',
  from_name: 'text',
  reply_to: 'text',
  subject: 'text',
  body: 'text',
  type: 'text',
  headers: 'jsonb',
  variables: 'jsonb',
  attachment_ids: 'uuid[]',
  delivery_queue: 'text',
  opens: 'boolean',
  clicks: 'boolean',
} as const satisfies Record<string, string>;
type SendColumn = keyof typeof SEND_COLUMNS;
const S = Object.fromEntries(Object.keys(SEND_COLUMNS).map((c) => [c, `sent.${c}`])) as Record<
  SendColumn,
  string
>;

/** Built once: the statement text is the same for every send (and prepared by name). */
const QUEUE_EMAILS_SQL = `${CONTACT_UPSERT_CTES},
     sends AS (
       SELECT * FROM jsonb_to_recordset($5::jsonb) AS r(${Object.entries(SEND_COLUMNS)
         .map(([column, type]) => `${column} ${type}`)
         .join(', ')})
     ),
     queued AS (
       ${insertEmailsSql({
         values: {
           id: S.id,
           template_id: S.template_id,
           domain_id: S.domain_id,
           to_name: S.to_name,
           from_address: S.from_address,
           from_name: S.from_name,
           reply_to: S.reply_to,
           subject: S.subject,
           body: S.body,
           type: S.type,
           headers: S.headers,
           attachment_ids: S.attachment_ids,
           delivery_queue: S.delivery_queue,
           project_id: '$2::uuid',
           contact_id: 'f.id',
           to_address: 'f.email',
           ...JUDGED_OUTBOX_VALUES,
           variables: templateVariablesSql({
             data: 'f.data',
             extra: S.variables,
             email: 'f.email',
             id: 'f.id',
           }),
           created_at: 'now()',
           ...trackingSql({
             levels: [
               { opens: S.opens, clicks: S.clicks } satisfies Record<TrackingKind, string>,
               templateTrackingLevel(S.template_id),
             ],
             projectId: '$2::uuid',
           }),
         },
         from: `FROM flagged f
                JOIN sends sent ON sent.ord = f.ord
                ${judgeRecipientSql({
                  projectId: '$2::uuid',
                  email: 'f.email',
                  unsubscribedBlocks: `${S.type} = 'MARKETING'`,
                  subscribed: 'f.subscribed',
                  // Sent to the address on purpose by the project's own server.
                  awaitingOptIn: 'false',
                })}`,
         returning: 'id, contact_id, status',
       })}
     )
     SELECT f.ord, q.contact_id, f.email, q.id AS email_id, q.status
       FROM queued q JOIN flagged f ON f.id = q.contact_id
      ORDER BY f.ord`;

export interface QueuedEmailResult {
  contact_id: string;
  email: string;
  email_id: string;
  status: AcceptedEmailStatus;
}

/** One recipient of a send: the contact to upsert and the email to write for it. */
export interface QueuedSend {
  contact: ContactUpsertRow;
  email: QueuedEmailRow;
}

/**
 * Upserts each recipient as a contact (data rules and subscription events as in upsertContacts)
 * and writes its email row, in ONE statement; recipients must have distinct addresses. A row is
 * SUPPRESSED when the address is on the project's suppression list, or for marketing mail to an
 * unsubscribed contact; otherwise QUEUED. Results come back in input order.
 */
export async function upsertContactsAndQueueEmails(
  sql: Sql,
  {
    projectId,
    sends,
    defaultSubscribed,
    source,
  }: {
    projectId: string;
    sends: QueuedSend[];
    defaultSubscribed: boolean;
    source: string;
  },
): Promise<QueuedEmailResult[]> {
  if (sends.length === 0) return [];
  const perRecipient = sends.map(({ email }, ord) => ({
    ord,
    id: email.id,
    template_id: email.templateId,
    domain_id: email.domainId,
    to_name: email.toName,
    from_address: email.fromAddress,
    from_name: email.fromName,
    reply_to: email.replyTo,
    subject: email.subject,
    body: email.body,
    type: email.type,
    headers: email.headers,
    variables: email.variables,
    attachment_ids: email.attachmentIds,
    delivery_queue: email.deliveryQueue,
    opens: email.tracking?.opens ?? null,
    clicks: email.tracking?.clicks ?? null,
  })) satisfies Record<SendColumn, unknown>[];
  const rows = await sql.query<QueuedEmailResult & { ord: number }>(
    QUEUE_EMAILS_SQL,
    [
      ...contactUpsertParams({
        projectId,
        rows: sends.map((send) => send.contact),
        defaultSubscribed,
        source,
      }),
      JSON.stringify(perRecipient),
    ],
    'queue-emails',
  );
  if (rows.length !== sends.length)
    throw new Error(`The contact and email write returned ${rows.length} of ${sends.length} rows`);
  return rows;
}

const STEP_EMAIL = namedParams({
  id: 'uuid',
  projectId: 'uuid',
  contactId: 'uuid',
  templateId: 'uuid',
  domainId: 'uuid',
  variables: 'jsonb',
  deliveryQueue: null,
  workflowId: 'uuid',
  executionId: 'uuid',
  stepId: 'uuid',
});

const QUEUE_EXECUTION_EMAIL_SQL = `WITH queued AS (
       ${insertEmailsSql({
         values: {
           id: STEP_EMAIL.$.id,
           project_id: STEP_EMAIL.$.projectId,
           contact_id: 'c.id',
           template_id: 't.id',
           domain_id: STEP_EMAIL.$.domainId,
           to_address: 'c.email',
           from_address: 't.from_address',
           from_name: 't.from_name',
           reply_to: 't.reply_to',
           subject: 't.subject',
           body: 't.body',
           type: 't.type',
           ...JUDGED_OUTBOX_VALUES,
           headers: "'{}'::jsonb",
           variables: templateVariablesSql({
             data: 'c.data',
             extra: STEP_EMAIL.$.variables,
             email: 'c.email',
             id: 'c.id',
           }),
           attachment_ids: "'{}'::uuid[]",
           delivery_queue: STEP_EMAIL.$.deliveryQueue,
           created_at: 'now()',
           workflow_id: STEP_EMAIL.$.workflowId,
           execution_id: STEP_EMAIL.$.executionId,
           step_id: STEP_EMAIL.$.stepId,
           ...trackingSql({ levels: [trackingLevelOf('t')], projectId: STEP_EMAIL.$.projectId }),
         },
         from: `FROM contacts c
                JOIN templates t
                  ON t.id = ${STEP_EMAIL.$.templateId} AND t.project_id = ${STEP_EMAIL.$.projectId}
                ${judgeRecipientSql({
                  projectId: STEP_EMAIL.$.projectId,
                  email: 'c.email',
                  unsubscribedBlocks: "t.type = 'MARKETING'",
                  subscribed: 'c.subscribed',
                  awaitingOptIn: optInPendingSql('c'),
                })}
               WHERE c.id = ${STEP_EMAIL.$.contactId} AND c.project_id = ${STEP_EMAIL.$.projectId}`,
         onConflict:
           'ON CONFLICT (execution_id, step_id) WHERE execution_id IS NOT NULL DO NOTHING',
         returning: 'id, status',
       })})
     SELECT id, status FROM queued
     UNION ALL
     SELECT id, status FROM emails
      WHERE execution_id = ${STEP_EMAIL.$.executionId} AND step_id = ${STEP_EMAIL.$.stepId}
     LIMIT 1`;

/**
 * Writes the email a workflow's SEND_EMAIL step sends to its execution's contact, from a
 * template, once per execution and step: a repeated call answers the email written the first
 * time. SUPPRESSED as for sends (the suppression list; marketing mail to an unsubscribed contact).
 * Answers undefined when the contact or the template is gone.
 */
export async function queueExecutionEmail(
  sql: Sql,
  email: {
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
    STEP_EMAIL.values({ ...email, variables: JSON.stringify(email.variables) }),
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
