import type { DoubleOptInSettings } from '../../domain/contacts/double-opt-in-settings.pure.js';
import type { AcceptedEmailStatus } from '../../domain/sending/email-status.pure.js';
import {
  insertEmailsSql,
  JUDGED_OUTBOX_VALUES,
  judgeRecipientSql,
  templateVariablesSql,
  UNTRACKED_OUTBOX_VALUES,
} from './email-outbox.sql.js';
import { namedParams } from './named-params.js';
import { optInPendingSql } from './opt-in-state.sql.js';
import type { SendTemplateRow } from './queue-email.sql.js';
import type { InProject, Sql } from './sql.js';

/** What a confirmation email is made from: the project's setting, name and verified domains. */
export interface ConfirmationContext {
  projectName: string;
  settings: Partial<DoubleOptInSettings>;
  /** The chosen template, when the setting names one that still exists. */
  template: SendTemplateRow | null;
  /** Oldest first: the built-in email is sent from the first. */
  verifiedDomains: { id: string; domain: string }[];
}

export async function findConfirmationContext(
  sql: Sql,
  { projectId }: { projectId: string },
): Promise<ConfirmationContext | undefined> {
  const [row] = await sql.query<{
    name: string;
    settings: Partial<DoubleOptInSettings>;
    template: SendTemplateRow | null;
    domains: { id: string; domain: string }[];
  }>(
    `SELECT p.name, p.double_opt_in AS settings,
            (SELECT to_jsonb(t) FROM (
               SELECT id, type, subject, body, from_address, from_name, reply_to
                 FROM templates
                WHERE id = (p.double_opt_in ->> 'templateId')::uuid AND project_id = p.id) t
            ) AS template,
            coalesce((SELECT jsonb_agg(jsonb_build_object('id', d.id, 'domain', d.domain)
                                       ORDER BY d.created_at, d.id)
                        FROM domains d WHERE d.project_id = p.id AND d.status = 'VERIFIED'),
                     '[]') AS domains
       FROM projects p WHERE p.id = $1`,
    [projectId],
  );
  return (
    row && {
      projectName: row.name,
      settings: row.settings,
      template: row.template,
      verifiedDomains: row.domains,
    }
  );
}

/** The confirmation email's own values, by outbox column, after the contact and `resend`. */
const CONFIRMATION = namedParams(
  {
    id: 'uuid',
    template_id: 'uuid',
    domain_id: 'uuid',
    from_address: null,
    from_name: null,
    reply_to: null,
    subject: null,
    body: null,
    variables: 'jsonb',
    delivery_queue: null,
  },
  { first: 4 },
);

/**
 * $1 contact, $2 project, $3 resend. The contact is asked when it is not subscribed and (unless
 * `resend`) not waiting already; `opt_in_requested_at` takes the clock rather than the
 * transaction's start, so it follows whatever flip of `subscribed` came before it.
 */
const ASK_SQL = `WITH asked AS (
       UPDATE contacts c SET opt_in_requested_at = clock_timestamp(), updated_at = now()
        WHERE c.id = $1::uuid AND c.project_id = $2::uuid AND NOT c.subscribed
          AND ($3::boolean OR NOT ${optInPendingSql('c')})
       RETURNING c.id, c.email, c.data
     ),
     queued AS (
       ${insertEmailsSql({
         values: {
           ...CONFIRMATION.$,
           project_id: '$2::uuid',
           contact_id: 'a.id',
           to_address: 'a.email',
           // Sent whatever the contact's state (it is how a contact gets subscribed); the
           // suppression list still holds.
           type: "'TRANSACTIONAL'",
           ...JUDGED_OUTBOX_VALUES,
           headers: "'{}'::jsonb",
           variables: templateVariablesSql({
             data: 'a.data',
             extra: CONFIRMATION.$.variables,
             email: 'a.email',
             id: 'a.id',
           }),
           attachment_ids: "'{}'::uuid[]",
           created_at: 'now()',
           // Its one link is the confirmation: neither rewritten nor counted.
           ...UNTRACKED_OUTBOX_VALUES,
         },
         from: `FROM asked a
                ${judgeRecipientSql({
                  projectId: '$2::uuid',
                  email: 'a.email',
                  unsubscribedBlocks: 'false',
                  subscribed: 'true',
                  awaitingOptIn: 'false',
                })}`,
         returning: 'id, status',
       })}
     )
     SELECT id, status FROM queued`;

/** A confirmation email as `askForConfirmation` writes it. */
export interface ConfirmationEmailRow {
  id: string;
  templateId: string | null;
  domainId: string;
  fromAddress: string;
  fromName: string | null;
  replyTo: string | null;
  subject: string;
  body: string;
  /** Template variables on top of the contact's data: the link, the project's name. */
  variables: Record<string, unknown>;
  deliveryQueue: string;
}

/**
 * Marks the contact as waiting for its confirmation and writes the confirmation email to the
 * outbox, in ONE statement. Nothing happens (undefined) when the contact is subscribed, or
 * already waits and `resend` is false.
 */
export async function askForConfirmation(
  sql: Sql,
  {
    projectId,
    contactId,
    resend,
    email,
  }: { projectId: string; contactId: string; resend: boolean; email: ConfirmationEmailRow },
): Promise<{ id: string; status: AcceptedEmailStatus } | undefined> {
  const [row] = await sql.query<{ id: string; status: AcceptedEmailStatus }>(
    ASK_SQL,
    [
      contactId,
      projectId,
      resend,
      ...CONFIRMATION.values({
        id: email.id,
        template_id: email.templateId,
        domain_id: email.domainId,
        from_address: email.fromAddress,
        from_name: email.fromName,
        reply_to: email.replyTo,
        subject: email.subject,
        body: email.body,
        variables: JSON.stringify(email.variables),
        delivery_queue: email.deliveryQueue,
      }),
    ],
    'opt-in-ask',
  );
  return row;
}

/** A contact as its confirmation link sees it. */
export interface OptInContactRow {
  email: string;
  subscribed: boolean;
  pending: boolean;
  project_name: string;
}

/** The contact a confirmation link names, in the project it names. */
export async function findOptInContact(
  sql: Sql,
  link: InProject<'contactId'>,
): Promise<OptInContactRow | undefined> {
  const [row] = await sql.query<OptInContactRow>(
    `SELECT c.email, c.subscribed, ${optInPendingSql('c')} AS pending, p.name AS project_name
       FROM contacts c JOIN projects p ON p.id = c.project_id
      WHERE c.id = $1 AND c.project_id = $2`,
    [link.contactId, link.projectId],
  );
  return row;
}

/**
 * Confirms a waiting contact in ONE statement: subscribed, `opt_in_confirmed_at`, and its one
 * contact.subscribed event (`source: double-opt-in`). A contact that is not waiting (confirmed
 * already, or its subscription changed since) is left alone: `confirmed` is false, and the row
 * is as it was before. Concurrent confirmations: the UPDATE re-checks the row it waited for, so
 * one of them confirms.
 */
export async function confirmOptIn(
  sql: Sql,
  { projectId, contactId, eventId }: { projectId: string; contactId: string; eventId: string },
): Promise<(OptInContactRow & { confirmed: boolean }) | undefined> {
  const [row] = await sql.query<OptInContactRow & { confirmed: boolean }>(
    `WITH confirmed AS (
       UPDATE contacts c SET subscribed = true, subscription_changed_at = now(),
                             opt_in_confirmed_at = now(), updated_at = now()
        WHERE c.id = $1 AND c.project_id = $2 AND ${optInPendingSql('c')}
       RETURNING c.id, c.project_id
     ),
     recorded AS (
       INSERT INTO events (id, project_id, contact_id, name, data, created_at)
       SELECT $3, project_id, id, 'contact.subscribed',
              jsonb_build_object('source', 'double-opt-in'), now()
         FROM confirmed
       RETURNING id
     )
     SELECT c.email, c.subscribed, ${optInPendingSql('c')} AS pending, p.name AS project_name,
            EXISTS (SELECT 1 FROM confirmed) AS confirmed
       FROM contacts c JOIN projects p ON p.id = c.project_id
      WHERE c.id = $1 AND c.project_id = $2`,
    [contactId, projectId, eventId],
  );
  return row;
}
