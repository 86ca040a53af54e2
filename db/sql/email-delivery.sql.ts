import type { EmailStatus } from '../../domain/sending/email-status.pure.js';
import type { EmailType } from '../../domain/sending/email-type.pure.js';
import { findColumn } from './rows.js';
import type { LaneClaim, Sql } from './sql.js';

/** An email row with what delivering it needs: its domain's DKIM key, what it tracks. */
export interface DeliverableEmail {
  id: string;
  project_id: string;
  contact_id: string | null;
  template_id: string | null;
  status: EmailStatus;
  type: EmailType;
  /** Chosen when it was queued (email-outbox.sql.ts), kept for every attempt. */
  open_tracking: boolean;
  click_tracking: boolean;
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
  /** The domain's return-path host once its MX is in place (the envelope sender's domain). */
  return_path_host: string | null;
}

/** The DeliverableEmail rows of the `emails` rows that the relation `from` holds. */
function deliverableFrom(from: string): string {
  return `SELECT e.id, e.project_id, e.contact_id, e.template_id, e.status, e.type, e.to_address,
         e.to_name, e.from_address, e.from_name, e.reply_to, e.subject, e.body, e.headers,
         e.variables, e.attachment_ids, d.domain, d.selector, d.dkim_private_key,
         d.return_path_host, e.open_tracking, e.click_tracking
    FROM ${from} e LEFT JOIN domains d ON d.id = e.domain_id
   ORDER BY e.created_at`;
}

/**
 * DeliverableEmail rows for the emails that `picked` (a statement returning `emails` rows, such
 * as a claiming UPDATE) answers, in one round trip.
 */
function deliverableEmails(picked: string): string {
  return `WITH picked AS (${picked}) ${deliverableFrom('picked')}`;
}

/** A queue's claim: the emails a lane may deliver now, or how long until a throttled one may go. */
export interface EmailClaim {
  emails: DeliverableEmail[];
  /** With no email claimed, milliseconds until a project waiting on its throttle may send again. */
  throttledForMs: number | null;
}

/**
 * Claims up to `limit` deliverable emails of a queue under a lease of `leaseSeconds`, no project
 * more than its send throttle allows (`ratePerSecond`, with a burst of one second's worth: GCRA
 * over `project_send_pace`, whose `tat` is when the project's next email is due). Within a
 * project, mail that is not a campaign's goes first, so a big campaign never holds transactional
 * mail back; then oldest first. Rows other lanes hold are skipped; rows this lane's `token`
 * already holds (a retried attempt of the same lane after its worker died) are taken back at
 * once. Never those the lane says it still has `inHand` (a lane claims its next batch while
 * the last is under way), even when their lease ran out. One transaction: the projects with
 * mail waiting are found by a skip scan of the deliverable index, their pace rows locked (in id
 * order, so lanes never deadlock) and their allowance spent with the claim.
 */
export async function claimQueuedEmails(
  sql: Sql,
  {
    queue,
    token,
    limit,
    leaseSeconds,
    ratePerSecond,
    inHand = [],
  }: LaneClaim & {
    token: string;
    ratePerSecond: number;
    /** Emails the lane claimed and still delivers: not taken back, though the token holds them. */
    inHand?: string[];
  },
): Promise<EmailClaim> {
  return sql.transaction(async (tx) => {
    const paces = await tx.query<{ project_id: string; allowance: number; wait_ms: number }>(
      `WITH RECURSIVE waiting AS (
         (SELECT project_id FROM emails
           WHERE delivery_queue = $1 AND status = 'QUEUED' AND workflow_started_at IS NULL
           ORDER BY project_id LIMIT 1)
         UNION ALL
         SELECT (SELECT e.project_id FROM emails e
                  WHERE e.delivery_queue = $1 AND e.status = 'QUEUED'
                    AND e.workflow_started_at IS NULL AND e.project_id > w.project_id
                  ORDER BY e.project_id LIMIT 1)
           FROM waiting w WHERE w.project_id IS NOT NULL)
       INSERT INTO project_send_pace AS p (project_id, tat)
       SELECT project_id, now() FROM waiting WHERE project_id IS NOT NULL ORDER BY project_id
       ON CONFLICT (project_id) DO UPDATE SET tat = p.tat
       RETURNING p.project_id,
         least($2::int, floor(extract(epoch FROM now() + make_interval(secs => $4::float8)
                                              - greatest(p.tat, now())) * $3::float8))::int AS allowance,
         ceil(extract(epoch FROM greatest(p.tat, now()) + make_interval(secs => 1 / $3::float8)
                                 - make_interval(secs => $4::float8) - now()) * 1000)::int AS wait_ms`,
      // The burst: a second's worth of mail, and at least one email at rates below one a second.
      [queue, limit, ratePerSecond, Math.max(1, 1 / ratePerSecond)],
      'claim-emails-pace',
    );
    const open = paces.filter((pace) => pace.allowance > 0);
    if (open.length === 0) {
      const waits = paces.map((pace) => Math.max(1, pace.wait_ms));
      return { emails: [], throttledForMs: waits.length > 0 ? Math.min(...waits) : null };
    }
    const emails = await tx.query<DeliverableEmail>(
      `WITH allowed AS (
         SELECT * FROM unnest($5::uuid[], $6::int[]) AS a(project_id, allowance)),
       candidates AS (
         SELECT e.id, e.campaign_id, e.created_at FROM allowed a CROSS JOIN LATERAL (
           SELECT id, campaign_id, created_at FROM emails e
            WHERE e.delivery_queue = $1 AND e.project_id = a.project_id AND e.status = 'QUEUED'
              AND e.workflow_started_at IS NULL
              AND (e.claimed_until IS NULL OR e.claimed_until < now() OR e.claimed_by = $2)
              AND e.id <> ALL($8::uuid[])
            ORDER BY (e.campaign_id IS NOT NULL), e.created_at LIMIT a.allowance
            FOR UPDATE SKIP LOCKED) e
         ORDER BY (e.campaign_id IS NOT NULL), e.created_at LIMIT $3),
       claimed AS (
         UPDATE emails SET claimed_by = $2, claimed_until = now() + make_interval(secs => $4)
          WHERE id IN (SELECT id FROM candidates)
         RETURNING *),
       paced AS (
         UPDATE project_send_pace p
            SET tat = greatest(p.tat, now()) + make_interval(secs => c.n / $7::float8)
           FROM (SELECT project_id, count(*) AS n FROM claimed GROUP BY project_id) c
          WHERE p.project_id = c.project_id)
       ${deliverableFrom('claimed')}`,
      [
        queue,
        token,
        limit,
        leaseSeconds,
        open.map((pace) => pace.project_id),
        open.map((pace) => pace.allowance),
        ratePerSecond,
        inHand,
      ],
      'claim-emails',
    );
    return { emails, throttledForMs: null };
  });
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
 * Keeps a queued email's last temporary refusal (the relay's words, its reply code among them)
 * while its send-email run retries: the evidence its soft bounce keeps if the retries run out.
 * An email no longer QUEUED is left as it is.
 */
export async function recordEmailRefusal(
  sql: Sql,
  { emailId, error }: { emailId: string; error: string },
): Promise<void> {
  await sql.query(`UPDATE emails SET error = $2 WHERE id = $1 AND status = 'QUEUED'`, [
    emailId,
    error,
  ]);
}

/** The reason kept on an email (its last refusal while queued), if any. */
export async function findEmailError(
  sql: Sql,
  { emailId }: { emailId: string },
): Promise<string | null | undefined> {
  return findColumn<string | null>(sql, { table: 'emails', column: 'error', key: 'id' }, emailId);
}

/** What an email.* event records of its email: the columns an UPDATE ... RETURNING gives it. */
const EMAIL_EVENT_COLUMNS =
  'id, project_id, contact_id, subject, template_id, message_id, workflow_id, execution_id, campaign_id';

/**
 * Records event `name` for each email row of CTE `from` (EMAIL_EVENT_COLUMNS) that has a
 * contact; `data` adds `'key', value` pairs to what the event says of its email.
 */
const insertEmailEventSql = ({ from, name, data }: { from: string; name: string; data?: string }) =>
  `INSERT INTO events (id, project_id, contact_id, name, data, created_at)
     SELECT uuid_generate_v7(now()), project_id, contact_id, '${name}',
            jsonb_strip_nulls(jsonb_build_object('emailId', id, 'messageId', message_id,
              'subject', subject, 'templateId', template_id, 'workflowId', workflow_id,
              'executionId', execution_id, 'campaignId', campaign_id${data ? `, ${data}` : ''})), now()
       FROM ${from} WHERE contact_id IS NOT NULL`;

/**
 * Records the server's acceptance: SENT with its Message-ID and rendered subject, and the
 * `email.sent` event, in one statement. A campaign's email cancelled while a lane was already
 * handing it over was sent all the same, and is recorded so. So is one whose bounce was reported
 * (by its id) while the server held it, before this ran: it stays BOUNCED, now with its sending.
 * Any other status is left as it is.
 */
export async function markEmailSent(
  sql: Sql,
  { emailId, messageId, subject }: { emailId: string; messageId: string | null; subject: string },
): Promise<void> {
  await sql.query(
    `WITH sent AS (
       UPDATE emails SET status = CASE WHEN status = 'BOUNCED' THEN status ELSE 'SENT' END,
              sent_at = now(), message_id = $2, subject = $3,
              claimed_by = NULL, claimed_until = NULL
        WHERE id = $1
          AND (status IN ('QUEUED', 'CANCELLED') OR (status = 'BOUNCED' AND sent_at IS NULL))
        RETURNING ${EMAIL_EVENT_COLUMNS})
     ${insertEmailEventSql({ from: 'sent', name: 'email.sent' })}`,
    [emailId, messageId, subject],
    'email-sent',
  );
}

/** What the server's 250 tells of one email: its Message-ID and rendered subject. */
export interface AcceptedEmail {
  emailId: string;
  messageId: string | null;
  subject: string;
}

/**
 * markEmailSent for many emails at once: one statement (the emails SENT and their `email.sent`
 * events) and one commit for a group of emails the server accepted, with the same rules for
 * emails no longer QUEUED.
 */
export async function markEmailsSent(
  sql: Sql,
  { emails }: { emails: AcceptedEmail[] },
): Promise<void> {
  await sql.query(
    `WITH accepted AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) AS a(id, message_id, subject)),
     sent AS (
       UPDATE emails e SET status = CASE WHEN e.status = 'BOUNCED' THEN e.status ELSE 'SENT' END,
              sent_at = now(), message_id = a.message_id, subject = a.subject,
              claimed_by = NULL, claimed_until = NULL
         FROM accepted a
        WHERE e.id = a.id
          AND (e.status IN ('QUEUED', 'CANCELLED') OR (e.status = 'BOUNCED' AND e.sent_at IS NULL))
        RETURNING ${EMAIL_EVENT_COLUMNS.split(', ')
          .map((c) => `e.${c}`)
          .join(', ')})
     ${insertEmailEventSql({ from: 'sent', name: 'email.sent' })}`,
    [emails.map((e) => e.emailId), emails.map((e) => e.messageId), emails.map((e) => e.subject)],
    'emails-sent',
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
        RETURNING ${EMAIL_EVENT_COLUMNS})
     ${insertEmailEventSql({ from: 'failed', name: 'email.failed', data: "'error', $3::text" })}`,
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
