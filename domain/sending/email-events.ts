import type { EmailEventSource } from '../../db/sql/emails.sql.js';
import { insertEvent } from '../../db/sql/events.sql.js';
import type { Sql } from '../../db/sql/sql.js';

/**
 * email.* events carry `{emailId, messageId, subject, templateId?, workflowId?, executionId?, campaignId?, ...}`
 * (decisions.md).
 */
export async function recordEmailEvent(
  sql: Sql,
  email: EmailEventSource,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  if (!email.contact_id) return;
  await insertEvent(sql, {
    projectId: email.project_id,
    contactId: email.contact_id,
    name,
    data: {
      emailId: email.id,
      messageId: email.message_id ?? undefined,
      subject: email.subject,
      templateId: email.template_id ?? undefined,
      workflowId: email.workflow_id ?? undefined,
      executionId: email.execution_id ?? undefined,
      campaignId: email.campaign_id ?? undefined,
      ...extra,
    },
  });
}
