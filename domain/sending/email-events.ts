import type { Sql } from '../../db/sql/sql.js';

export interface EmailEventSource {
  id: string;
  project_id: string;
  contact_id: string | null;
  subject: string;
  template_id: string | null;
  message_id?: string | null;
}

/** email.* events carry `{emailId, messageId, subject, templateId?, ...}` (decisions.md). */
export async function recordEmailEvent(
  sql: Sql,
  email: EmailEventSource,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  if (!email.contact_id) return;
  await sql.query(
    `INSERT INTO events (id, project_id, contact_id, name, data, created_at) VALUES (uuid_generate_v7(), $1, $2, $3, $4, now())`,
    [
      email.project_id,
      email.contact_id,
      name,
      JSON.stringify({
        emailId: email.id,
        messageId: email.message_id ?? undefined,
        subject: email.subject,
        templateId: email.template_id ?? undefined,
        ...extra,
      }),
    ],
  );
}
