import type { EmailStatus } from '../../domain/sending/email-status.pure.js';
import type { EmailType } from '../../domain/sending/email-type.pure.js';
import type { Sql } from './sql.js';

/** An email row with what delivering it needs: its domain's DKIM key and the project's setting. */
export interface DeliverableEmail {
  id: string;
  project_id: string;
  contact_id: string | null;
  template_id: string | null;
  status: EmailStatus;
  type: EmailType;
  tracking_enabled: boolean;
  to_address: string;
  to_name: string | null;
  from_address: string;
  from_name: string | null;
  reply_to: string | null;
  subject: string;
  body: string;
  headers: Record<string, string>;
  variables: Record<string, unknown>;
  attachment_ids: string[];
  domain: string | null;
  selector: string | null;
  dkim_private_key: string | null;
}

/**
 * DeliverableEmail rows for the emails that `picked` (a statement returning `emails` rows, such
 * as a claiming UPDATE) answers, in one round trip.
 */
function deliverableEmails(picked: string): string {
  return `WITH picked AS (${picked})
  SELECT e.id, e.project_id, e.contact_id, e.template_id, e.status, e.type, e.to_address, e.to_name,
         e.from_address, e.from_name, e.reply_to, e.subject, e.body, e.headers, e.variables,
         e.attachment_ids, d.domain, d.selector, d.dkim_private_key,
         e.tracking AND coalesce((p.settings ->> 'trackingEnabled')::boolean, true) AS tracking_enabled
    FROM picked e JOIN projects p ON p.id = e.project_id LEFT JOIN domains d ON d.id = e.domain_id
   ORDER BY e.created_at`;
}

/**
 * Claims up to `limit` deliverable emails of a queue, oldest first (mail that is not a campaign's
 * before a campaign's, so a big campaign never holds transactional mail back), under a lease of
 * `leaseSeconds`. Rows other lanes hold are skipped; rows this lane's `token` already holds (a
 * retried attempt of the same lane after its worker died) are taken back at once.
 */
export async function claimQueuedEmails(
  sql: Sql,
  {
    queue,
    token,
    limit,
    leaseSeconds,
  }: { queue: string; token: string; limit: number; leaseSeconds: number },
): Promise<DeliverableEmail[]> {
  return sql.query<DeliverableEmail>(
    deliverableEmails(`
      UPDATE emails SET claimed_by = $2, claimed_until = now() + make_interval(secs => $4)
       WHERE id IN (
         SELECT id FROM emails
          WHERE delivery_queue = $1 AND status = 'QUEUED' AND workflow_started_at IS NULL
            AND (claimed_until IS NULL OR claimed_until < now() OR claimed_by = $2)
          ORDER BY (campaign_id IS NOT NULL), created_at LIMIT $3
          FOR UPDATE SKIP LOCKED)
      RETURNING *`),
    [queue, token, limit, leaseSeconds],
    'claim-emails',
  );
}

/**
 * Marks an email as in its own send-email workflow's hands (idempotent), so delivery lanes leave
 * it alone, and answers it in whatever status it is.
 */
export async function takeEmailForRetry(
  sql: Sql,
  { emailId }: { emailId: string },
): Promise<DeliverableEmail | undefined> {
  const [row] = await sql.query<DeliverableEmail>(
    deliverableEmails(`
      UPDATE emails SET workflow_started_at = coalesce(workflow_started_at, now())
       WHERE id = $1 RETURNING *`),
    [emailId],
  );
  return row;
}

/** Extends the lease on queued emails `token` holds. */
export async function renewEmailLeases(
  sql: Sql,
  { emailIds, token, leaseSeconds }: { emailIds: string[]; token: string; leaseSeconds: number },
): Promise<void> {
  await sql.query(
    `UPDATE emails SET claimed_until = now() + make_interval(secs => $3)
      WHERE id = ANY($1::uuid[]) AND claimed_by = $2 AND status = 'QUEUED'`,
    [emailIds, token, leaseSeconds],
  );
}

/** Gives back queued emails `token` claimed and never began: any lane may take them at once. */
export async function releaseEmailLeases(
  sql: Sql,
  { emailIds, token }: { emailIds: string[]; token: string },
): Promise<void> {
  await sql.query(
    `UPDATE emails SET claimed_by = NULL, claimed_until = NULL
      WHERE id = ANY($1::uuid[]) AND claimed_by = $2 AND status = 'QUEUED'`,
    [emailIds, token],
  );
}

/** A queued email no lane may take for `seconds` (its hand-off failed), with the reason. */
export async function holdQueuedEmail(
  sql: Sql,
  { emailId, seconds, error }: { emailId: string; seconds: number; error: string },
): Promise<void> {
  await sql.query(
    `UPDATE emails SET claimed_by = NULL, claimed_until = now() + make_interval(secs => $2), error = $3
      WHERE id = $1 AND status = 'QUEUED'`,
    [emailId, seconds, error],
  );
}

/** A queued email is now its own send-email workflow's to deliver; lanes leave it alone. */
export async function markEmailRetrying(
  sql: Sql,
  { emailId, error }: { emailId: string; error: string },
): Promise<void> {
  await sql.query(
    `UPDATE emails SET workflow_started_at = coalesce(workflow_started_at, now()), claimed_by = NULL,
            claimed_until = NULL, error = $2
      WHERE id = $1 AND status = 'QUEUED'`,
    [emailId, error],
  );
}

/**
 * Records the server's acceptance: SENT with its Message-ID and rendered subject, and the
 * `email.sent` event, in one statement. A campaign's email cancelled while a lane was already
 * handing it over was sent all the same, and is recorded so; any other status is left as it is.
 */
export async function markEmailSent(
  sql: Sql,
  { emailId, messageId, subject }: { emailId: string; messageId: string | null; subject: string },
): Promise<void> {
  await sql.query(
    `WITH sent AS (
       UPDATE emails SET status = 'SENT', sent_at = now(), message_id = $2, subject = $3,
              claimed_by = NULL, claimed_until = NULL
        WHERE id = $1 AND status IN ('QUEUED', 'CANCELLED')
        RETURNING id, project_id, contact_id, subject, template_id, message_id, workflow_id,
                  execution_id, campaign_id)
     INSERT INTO events (id, project_id, contact_id, name, data, created_at)
     SELECT uuid_generate_v7(), project_id, contact_id, 'email.sent',
            jsonb_strip_nulls(jsonb_build_object('emailId', id, 'messageId', message_id,
              'subject', subject, 'templateId', template_id, 'workflowId', workflow_id,
              'executionId', execution_id, 'campaignId', campaign_id)), now()
       FROM sent WHERE contact_id IS NOT NULL`,
    [emailId, messageId, subject],
    'email-sent',
  );
}

/**
 * Marks a queued email FAILED with the reason, and records `email.failed` (with the first
 * `eventError` characters of it), in one statement. An email no longer QUEUED is left as it is.
 */
export async function markEmailFailed(
  sql: Sql,
  { emailId, error, eventError }: { emailId: string; error: string; eventError: string },
): Promise<void> {
  await sql.query(
    `WITH failed AS (
       UPDATE emails SET status = 'FAILED', error = $2, claimed_by = NULL, claimed_until = NULL
        WHERE id = $1 AND status = 'QUEUED'
        RETURNING id, project_id, contact_id, subject, template_id, message_id, workflow_id,
                  execution_id, campaign_id)
     INSERT INTO events (id, project_id, contact_id, name, data, created_at)
     SELECT uuid_generate_v7(), project_id, contact_id, 'email.failed',
            jsonb_strip_nulls(jsonb_build_object('emailId', id, 'messageId', message_id,
              'subject', subject, 'templateId', template_id, 'workflowId', workflow_id,
              'executionId', execution_id, 'campaignId', campaign_id, 'error', $3::text)), now()
       FROM failed WHERE contact_id IS NOT NULL`,
    [emailId, error, eventError],
  );
}

/** Deliverable rows of a project's emails to addresses starting with `toPrefix` (benchmarks). */
export async function findDeliverableEmails(
  sql: Sql,
  { projectId, toPrefix }: { projectId: string; toPrefix: string },
): Promise<DeliverableEmail[]> {
  return sql.query<DeliverableEmail>(
    deliverableEmails(
      `SELECT * FROM emails WHERE project_id = $1 AND starts_with(to_address, $2::text)`,
    ),
    [projectId, toPrefix],
  );
}
