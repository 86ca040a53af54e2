import type { EmailEngagement } from '../../domain/tracking/email-engagement.pure.js';
import type { BouncePolicy, SuppressionReason } from '../../domain/sending/bounce-policy.pure.js';
import type { Sql } from './sql.js';

/** What an `email.*` event says about its email. */
export interface EmailEventSource {
  id: string;
  project_id: string;
  contact_id: string | null;
  subject: string;
  template_id: string | null;
  message_id?: string | null;
  /** Set for mail a workflow's SEND_EMAIL step sent. */
  workflow_id?: string | null;
  execution_id?: string | null;
  /** Set for a campaign's mail. */
  campaign_id?: string | null;
}

export async function findEmailEventSource(
  sql: Sql,
  { emailId }: { emailId: string },
): Promise<EmailEventSource | undefined> {
  const [row] = await sql.query<EmailEventSource>(
    `SELECT id, project_id, contact_id, subject, template_id, message_id, workflow_id, execution_id,
            campaign_id FROM emails WHERE id = $1`,
    [emailId],
  );
  return row;
}

// First time only: the moment is kept, never a count.
const ENGAGEMENT_COLUMNS: Record<EmailEngagement, string> = {
  opened: 'opened_at',
  clicked: 'clicked_at',
  unsubscribed: 'unsubscribed_at',
};

/**
 * Notes the first time a recipient opened, clicked or unsubscribed from an email (a repeat keeps
 * the first moment), answering what its event says about it; undefined when it is gone.
 */
export async function noteEmailEngagement(
  sql: Sql,
  { emailId, engagement }: { emailId: string; engagement: EmailEngagement },
): Promise<EmailEventSource | undefined> {
  const column = ENGAGEMENT_COLUMNS[engagement];
  const [row] = await sql.query<EmailEventSource>(
    `UPDATE emails SET ${column} = coalesce(${column}, now()) WHERE id = $1
     RETURNING id, project_id, contact_id, subject, template_id, message_id, workflow_id,
               execution_id, campaign_id`,
    [emailId],
  );
  return row;
}

export interface FeedbackEmailRow extends EmailEventSource {
  to_address: string;
  /** The project's stored bounce policy (null or partial: bouncePolicyOf fills the defaults). */
  bounce_policy: Partial<BouncePolicy> | null;
}

const FEEDBACK_EMAIL_COLUMNS = `e.id, e.project_id, e.contact_id, e.subject, e.template_id,
  e.message_id, e.workflow_id, e.execution_id, e.campaign_id, e.to_address, p.bounce_policy`;

/**
 * The email a delivery report is about, by id, with its project's bounce policy, locked for the
 * rest of the transaction so concurrent reports about it apply one after another.
 */
export async function lockEmailForFeedback(
  sql: Sql,
  { emailId }: { emailId: string },
): Promise<FeedbackEmailRow | undefined> {
  const [row] = await sql.query<FeedbackEmailRow>(
    `SELECT ${FEEDBACK_EMAIL_COLUMNS}
       FROM emails e JOIN projects p ON p.id = e.project_id
      WHERE e.id = $1::uuid
      FOR UPDATE OF e`,
    [emailId],
    'email-lock-for-feedback',
  );
  return row;
}

/**
 * The emails, in every project, that carry a Message-ID, each with its project's bounce policy,
 * locked (in id order) like lockEmailForFeedback's. With recipients (lower-case addresses), only
 * the emails to one of them; without, at most two: enough to tell one email from several.
 */
export async function lockEmailsByMessageId(
  sql: Sql,
  { messageId, recipients }: { messageId: string; recipients: readonly string[] },
): Promise<FeedbackEmailRow[]> {
  return sql.query<FeedbackEmailRow>(
    `SELECT ${FEEDBACK_EMAIL_COLUMNS}
       FROM emails e JOIN projects p ON p.id = e.project_id
      WHERE e.message_id = $1::text
        AND (cardinality($2::text[]) = 0 OR lower(e.to_address) = ANY($2::text[]))
      ORDER BY e.id
      LIMIT CASE WHEN cardinality($2::text[]) = 0 THEN 2 END
      FOR UPDATE OF e`,
    [messageId, recipients],
    'emails-lock-by-message-id',
  );
}

/** SENT becomes DELIVERED, once; false when it already was (or was never sent). */
export async function markEmailDelivered(
  sql: Sql,
  { emailId }: { emailId: string },
): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE emails SET status = 'DELIVERED', delivered_at = now()
      WHERE id = $1 AND delivered_at IS NULL AND status = 'SENT' RETURNING id`,
    [emailId],
  );
  return rows.length > 0;
}

/** A hard bounce, recorded once; false when it already was. */
export async function markEmailBounced(
  sql: Sql,
  { emailId }: { emailId: string },
): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE emails SET bounced_at = now(), status = 'BOUNCED'
      WHERE id = $1 AND bounced_at IS NULL RETURNING id`,
    [emailId],
    'email-mark-bounced',
  );
  return rows.length > 0;
}

/** The moments an email reaches once, each a column stamped the first time only. */
const FIRST_TIME_COLUMNS = { complained: 'complained_at', softBounced: 'soft_bounced_at' } as const;

const stampOnce =
  (moment: keyof typeof FIRST_TIME_COLUMNS) =>
  async (sql: Sql, { emailId }: { emailId: string }): Promise<boolean> => {
    const column = FIRST_TIME_COLUMNS[moment];
    const rows = await sql.query(
      `UPDATE emails SET ${column} = now() WHERE id = $1 AND ${column} IS NULL RETURNING id`,
      [emailId],
    );
    return rows.length > 0;
  };

/** A spam complaint, recorded once; false when it already was. */
export const markEmailComplained = stampOnce('complained');

/** The email's first soft bounce, recorded once; false when it already was. */
export const markEmailSoftBounced = stampOnce('softBounced');

/** Puts an address on the project's suppression list (the first reason and evidence stay). */
export async function suppressAddress(
  sql: Sql,
  {
    projectId,
    email,
    reason,
    source = null,
    detail = null,
    emailId = null,
  }: {
    projectId: string;
    email: string;
    reason: SuppressionReason;
    source?: string | null;
    detail?: Record<string, unknown> | null;
    emailId?: string | null;
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO suppressions (project_id, email, reason, source, detail, email_id)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6)
     ON CONFLICT (project_id, email) DO NOTHING`,
    [projectId, email, reason, source, detail === null ? null : JSON.stringify(detail), emailId],
    'suppress-address',
  );
}

/** How many of the project's emails to `email` soft-bounced in the last `days`. */
export async function countRecentSoftBounces(
  sql: Sql,
  { projectId, email, days }: { projectId: string; email: string; days: number },
): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM emails
      WHERE project_id = $1 AND to_address = $2
        AND soft_bounced_at > now() - make_interval(days => $3)`,
    [projectId, email, days],
  );
  return row?.n ?? 0;
}
