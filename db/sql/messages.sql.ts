import type { EmailStatus } from '../../domain/sending/email-status.pure.js';
import type { EmailType } from '../../domain/sending/email-type.pure.js';
import type { InProject, Sql } from './sql.js';

/** One email of a project, with the names of the contact, campaign, template and workflow. */
export interface MessageRow {
  id: string;
  status: EmailStatus;
  type: EmailType;
  to_address: string;
  to_name: string | null;
  from_address: string | null;
  from_name: string | null;
  reply_to: string | null;
  subject: string;
  body: string | null;
  variables: Record<string, unknown>;
  message_id: string | null;
  error: string | null;
  suppression_reason: string | null;
  contact_id: string | null;
  contact_email: string | null;
  campaign_id: string | null;
  campaign_name: string | null;
  template_id: string | null;
  template_name: string | null;
  workflow_id: string | null;
  workflow_name: string | null;
  execution_id: string | null;
  open_tracking: boolean;
  click_tracking: boolean;
  created_at: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
  opened_at: Date | null;
  clicked_at: Date | null;
  bounced_at: Date | null;
  complained_at: Date | null;
  unsubscribed_at: Date | null;
}

/** The email `emailId` of the project; undefined when it is another project's or none. */
export async function findMessage(
  sql: Sql,
  { projectId, emailId }: { projectId: string; emailId: string },
): Promise<MessageRow | undefined> {
  const [row] = await sql.query<MessageRow>(
    `SELECT m.id, m.status, m.type, m.to_address, m.to_name, m.from_address, m.from_name,
            m.reply_to, m.subject, m.body, m.variables, m.message_id, m.error,
            m.suppression_reason, m.contact_id, c.email AS contact_email,
            m.campaign_id, cp.name AS campaign_name, m.template_id, t.name AS template_name,
            m.workflow_id, w.name AS workflow_name, m.execution_id, m.open_tracking,
            m.click_tracking, m.created_at, m.sent_at, m.delivered_at, m.opened_at, m.clicked_at, m.bounced_at,
            m.complained_at, m.unsubscribed_at
       FROM emails m
       LEFT JOIN contacts c ON c.id = m.contact_id
       LEFT JOIN campaigns cp ON cp.id = m.campaign_id AND cp.project_id = m.project_id
       LEFT JOIN templates t ON t.id = m.template_id AND t.project_id = m.project_id
       LEFT JOIN workflows w ON w.id = m.workflow_id AND w.project_id = m.project_id
      WHERE m.id = $1 AND m.project_id = $2`,
    [emailId, projectId],
  );
  return row;
}

export interface MessageEventRow {
  id: string;
  name: string;
  created_at: Date;
  data: Record<string, unknown>;
}

/**
 * The events recorded about one email (sent, delivered, opened, clicked, bounced...), oldest
 * first, at most `limit`. They belong to its contact, so the contact's index finds them.
 */
export async function listMessageEvents(
  sql: Sql,
  {
    projectId,
    contactId,
    emailId,
    limit,
  }: InProject<'contactId'> & { emailId: string; limit: number },
): Promise<MessageEventRow[]> {
  return sql.query<MessageEventRow>(
    `SELECT id, name, created_at, data FROM events
      WHERE project_id = $1 AND contact_id = $2 AND data ->> 'emailId' = $3
      ORDER BY id LIMIT $4`,
    [projectId, contactId, emailId, limit],
  );
}
