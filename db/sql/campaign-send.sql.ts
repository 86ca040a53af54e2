import { domainCoversHost } from './domain-match.js';
import type { AcceptedEmailStatus } from '../../domain/sending/email-status.pure.js';
import type { CampaignStatus } from '../../domain/campaigns/campaign-status.pure.js';
import * as outbox from './email-outbox.sql.js';
import { namedParams } from './named-params.js';
import { CAMPAIGN_BLOCKED_REASON, CAMPAIGN_SUPPRESSION_JOIN } from './campaign-audience.sql.js';
import type { CampaignRow } from './campaigns.sql.js';
import type { InProject, Sql } from './sql.js';

// A campaign's send: its status moves, its recipients' emails are queued in batches, it ends.

/**
 * The send's compare-and-set: DRAFT becomes SENDING (now) or SCHEDULED (`scheduledAt`), once.
 * Undefined when the campaign is not a draft.
 */
export async function markCampaignSent(
  sql: Sql,
  {
    projectId,
    campaignId,
    scheduledAt,
  }: { projectId: string; campaignId: string; scheduledAt: Date | null },
): Promise<CampaignRow | undefined> {
  const [row] = await sql.query<CampaignRow>(
    `UPDATE campaigns
        SET status = CASE WHEN $3::timestamptz IS NULL THEN 'SENDING' ELSE 'SCHEDULED' END,
            scheduled_at = $3::timestamptz,
            started_at = CASE WHEN $3::timestamptz IS NULL THEN now() END, updated_at = now()
      WHERE id = $1 AND project_id = $2 AND status = 'DRAFT'
      RETURNING *`,
    [campaignId, projectId, scheduledAt],
  );
  return row;
}

/**
 * Undoes markCampaignSent when the send's run could not be started: back to DRAFT, as long as no
 * run has begun it (still SCHEDULED, or SENDING with no snapshot).
 */
export async function unmarkCampaignSent(
  sql: Sql,
  { projectId, campaignId }: InProject<'campaignId'>,
): Promise<void> {
  await sql.query(
    `UPDATE campaigns
        SET status = 'DRAFT', scheduled_at = NULL, started_at = NULL, updated_at = now()
      WHERE id = $1 AND project_id = $2 AND snapshot_at IS NULL
        AND status IN ('SCHEDULED', 'SENDING')`,
    [campaignId, projectId],
  );
}

/**
 * The verified domain of the project that mail from `host` is sent on: the host itself or a
 * parent of it, the most specific when several match (as matchSenderDomain decides for /v1/send).
 */
export async function findSenderDomainId(
  sql: Sql,
  { projectId, host }: { projectId: string; host: string },
): Promise<string | undefined> {
  const [row] = await sql.query<{ id: string }>(
    `SELECT id FROM domains
      WHERE project_id = $1 AND status = 'VERIFIED'
        AND ${domainCoversHost('domain', '$2')}
      ORDER BY length(domain) DESC LIMIT 1`,
    [projectId, host],
  );
  return row?.id;
}

/**
 * Cancels a SCHEDULED or SENDING campaign in one transaction: its status, its recipients not
 * yet queued, and its emails still QUEUED (lanes only send QUEUED rows). The campaign row's lock
 * orders this against a batch being queued (see queueCampaignBatch). Undefined when the campaign
 * was in neither state.
 */
export async function cancelCampaignRows(
  sql: Sql,
  { projectId, campaignId }: { projectId: string; campaignId: string },
): Promise<{ previous: CampaignStatus; emails: number } | undefined> {
  return sql.transaction(async (tx) => {
    const [campaign] = await tx.query<{ previous: CampaignStatus }>(
      `UPDATE campaigns c SET status = 'CANCELLED', cancelled_at = now(), finished_at = now(),
              updated_at = now()
         FROM (SELECT status FROM campaigns WHERE id = $1 AND project_id = $2 FOR UPDATE) old
        WHERE c.id = $1 AND old.status IN ('SCHEDULED', 'SENDING')
        RETURNING old.status AS previous`,
      [campaignId, projectId],
    );
    if (!campaign) return undefined;
    await tx.query(
      `UPDATE campaign_recipients SET status = 'CANCELLED'
        WHERE campaign_id = $1 AND status = 'PENDING'`,
      [campaignId],
    );
    const emails = await tx.query(
      `UPDATE emails SET status = 'CANCELLED', claimed_by = NULL, claimed_until = NULL,
              error = 'The campaign was cancelled'
        WHERE campaign_id = $1 AND status = 'QUEUED' RETURNING id`,
      [campaignId],
    );
    return { previous: campaign.previous, emails: emails.length };
  });
}

/**
 * A SCHEDULED (or already SENDING) campaign begins sending: SENDING, with its start time.
 * Answers the status it is in afterwards, or undefined when it is gone.
 */
export async function beginCampaignSending(
  sql: Sql,
  { campaignId }: { campaignId: string },
): Promise<CampaignRow | undefined> {
  const [row] = await sql.query<CampaignRow>(
    `WITH begun AS (
       UPDATE campaigns SET status = 'SENDING', started_at = coalesce(started_at, now()),
              updated_at = now()
        WHERE id = $1 AND status IN ('SCHEDULED', 'SENDING')
        RETURNING *)
     SELECT * FROM begun
     UNION ALL
     SELECT * FROM campaigns WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM begun)`,
    [campaignId],
  );
  return row;
}

/** A SENDING campaign that cannot go on (its domain is gone) ends FAILED with the reason. */
export async function failCampaign(
  sql: Sql,
  { campaignId, error }: { campaignId: string; error: string },
): Promise<void> {
  await sql.query(
    `UPDATE campaigns SET status = 'FAILED', error = $2, finished_at = now(), updated_at = now()
      WHERE id = $1 AND status = 'SENDING'`,
    [campaignId, error],
  );
}

/** What the campaign's emails track: its own setting, then its template's, then the project's. */
const CAMPAIGN_TRACKING = outbox.trackingSql({
  levels: [outbox.trackingLevelOf('c'), outbox.templateTrackingLevel('c.template_id')],
  projectId: 'c.project_id',
});

/**
 * Queues the emails of up to `limit` PENDING recipients of a SENDING campaign in ONE statement:
 * an email row each (unique per campaign and contact, so a retried batch writes none twice; a
 * recipient whose email exists is marked QUEUED with that email), rendered at delivery from the
 * contact's data as it is now; recipients who unsubscribed, were suppressed or deleted since the
 * snapshot are SKIPPED instead. The campaign row is read FOR SHARE, so a cancel either waits for
 * this batch (and then cancels its emails) or makes it queue nothing. Answers how many
 * recipients it took (0: none left, or no longer SENDING).
 *
 * Every join here has one cheap plan whatever the planner expects of the CTEs (it expects one
 * row from each: the campaign's recipients are newer than the table's statistics). A join of two
 * CTEs has none: a nested loop of the batch with itself made 1,000 x 1,000 comparisons, 325 of
 * a batch's 392 ms, so the email ids are made in `judged` rather than read back from the insert,
 * and the recipient rows are updated where `picked` found them (by ctid: the rows stay locked, so
 * they cannot move), never through a join the planner could answer with a scan of every
 * recipient of the campaign.
 */
export async function queueCampaignBatch(
  sql: Sql,
  {
    campaignId,
    domainId,
    deliveryQueue,
    limit,
  }: { campaignId: string; domainId: string; deliveryQueue: string; limit: number },
): Promise<{ taken: number; queued: number }> {
  const [row] = await sql.query<{ taken: number; queued: number }>(
    `WITH campaign AS (
       SELECT id, project_id, template_id, subject, body, from_address, from_name, reply_to,
              ${CAMPAIGN_TRACKING.open_tracking} AS open_tracking,
              ${CAMPAIGN_TRACKING.click_tracking} AS click_tracking
         FROM campaigns c WHERE id = $1 AND status = 'SENDING' FOR SHARE),
     picked AS (
       SELECT r.ctid AS row_id, r.contact_id FROM campaign_recipients r
        WHERE r.campaign_id = $1 AND r.status = 'PENDING' AND EXISTS (SELECT 1 FROM campaign)
        ORDER BY r.contact_id LIMIT $4
        FOR UPDATE OF r SKIP LOCKED),
     judged AS (
       SELECT p.row_id, p.contact_id, c.email, c.data,
              CASE WHEN c.id IS NULL THEN 'deleted' ELSE ${CAMPAIGN_BLOCKED_REASON} END AS reason,
              (SELECT e.id FROM emails e
                WHERE e.campaign_id = $1 AND e.contact_id = p.contact_id) AS existing_id,
              uuid_generate_v7() AS new_id
         FROM picked p LEFT JOIN contacts c ON c.id = p.contact_id
         ${CAMPAIGN_SUPPRESSION_JOIN}),
     queued AS (
       ${outbox.insertEmailsSql({
         values: {
           id: 'j.new_id',
           project_id: 'k.project_id',
           contact_id: 'j.contact_id',
           template_id: 'k.template_id',
           domain_id: '$2::uuid',
           to_address: 'j.email',
           from_address: 'k.from_address',
           from_name: 'k.from_name',
           reply_to: 'k.reply_to',
           subject: 'k.subject',
           body: 'k.body',
           type: "'MARKETING'",
           status: "'QUEUED'",
           headers: "'{}'::jsonb",
           variables: outbox.templateVariablesSql({
             data: 'j.data',
             email: 'j.email',
             id: 'j.contact_id',
           }),
           attachment_ids: "'{}'::uuid[]",
           delivery_queue: '$3',
           created_at: 'now()',
           campaign_id: 'k.id',
           open_tracking: 'k.open_tracking',
           click_tracking: 'k.click_tracking',
         },
         // No ON CONFLICT: an email another transaction made for one of these recipients since
         // the statement began (nothing does) fails the batch, and its retry finds that email.
         from: 'FROM judged j CROSS JOIN campaign k WHERE j.reason IS NULL AND j.existing_id IS NULL',
         returning: 'id',
       })}),
     marked AS (
       UPDATE campaign_recipients r
          SET status = CASE WHEN j.reason IS NULL THEN 'QUEUED' ELSE 'SKIPPED' END,
              skip_reason = j.reason,
              email_id = CASE WHEN j.reason IS NULL THEN coalesce(j.existing_id, j.new_id) END
         FROM judged j
        WHERE r.ctid = j.row_id AND r.campaign_id = $1)
     -- Counted from the batch, not from the rows marked: a recipient changed by another
     -- transaction since the statement began (nothing does) is locked in its new version, which
     -- the UPDATE does not see; it stays PENDING and the next batch marks it with its email.
     SELECT count(*)::int AS taken, count(*) FILTER (WHERE reason IS NULL)::int AS queued
       FROM judged`,
    [campaignId, domainId, deliveryQueue, limit],
    'queue-campaign-batch',
  );
  return row ?? { taken: 0, queued: 0 };
}

/**
 * How far a campaign's send has come: its status, recipients still to queue, mail still queued.
 * Both counts are read from the campaign's kept figures (a row per connection shard), not
 * counted from the partial indexes, whose dead entries (of the rows changed since the last
 * vacuum) a count reads too; as of one snapshot, the kept sums are the rows' counts.
 */
export async function campaignProgress(
  sql: Sql,
  { campaignId }: { campaignId: string },
): Promise<{ status: CampaignStatus | null; pending: number; queued: number }> {
  const [row] = await sql.query<{ status: CampaignStatus | null; pending: number; queued: number }>(
    `SELECT (SELECT status FROM campaigns WHERE id = $1) AS status,
            f.pending, f.queued
       FROM (SELECT coalesce(sum(pending), 0)::int AS pending, coalesce(sum(queued), 0)::int AS queued
               FROM campaign_figures WHERE campaign_id = $1) f`,
    [campaignId],
  );
  return row ?? { status: null, pending: 0, queued: 0 };
}

/** SENDING becomes SENT once every email is out of the queue; answers the status after it. */
export async function finishCampaignSending(
  sql: Sql,
  { campaignId }: { campaignId: string },
): Promise<CampaignStatus | null> {
  const [row] = await sql.query<{ status: CampaignStatus }>(
    `WITH done AS (
       UPDATE campaigns SET status = 'SENT', finished_at = now(), updated_at = now()
        WHERE id = $1 AND status = 'SENDING' RETURNING status)
     SELECT status FROM done
     UNION ALL
     SELECT status FROM campaigns WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM done)`,
    [campaignId],
  );
  return row?.status ?? null;
}

/** A test send's own values, by outbox column. */
const TEST_EMAIL = namedParams({
  id: 'uuid',
  project_id: 'uuid',
  template_id: 'uuid',
  domain_id: 'uuid',
  to_address: null,
  from_address: null,
  from_name: null,
  reply_to: null,
  subject: null,
  body: null,
  delivery_queue: null,
});

/** A test send goes to the person testing, subscribed or not; the suppression list still holds. */
const QUEUE_TEST_EMAIL_SQL = outbox.insertEmailsSql({
  values: {
    ...TEST_EMAIL.$,
    contact_id: 'NULL',
    type: "'MARKETING'",
    ...outbox.JUDGED_OUTBOX_VALUES,
    headers: "'{}'::jsonb",
    variables: outbox.templateVariablesSql({
      data: "coalesce(c.data, '{}'::jsonb)",
      email: `${TEST_EMAIL.$.to_address}::text`,
      id: 'c.id',
    }),
    attachment_ids: "'{}'::uuid[]",
    created_at: 'now()',
    ...outbox.UNTRACKED_OUTBOX_VALUES,
  },
  from: `FROM (SELECT 1) one
         LEFT JOIN contacts c
           ON c.project_id = ${TEST_EMAIL.$.project_id} AND c.email = ${TEST_EMAIL.$.to_address}
         ${outbox.judgeRecipientSql({
           projectId: TEST_EMAIL.$.project_id,
           email: TEST_EMAIL.$.to_address,
           unsubscribedBlocks: 'false',
           subscribed: 'true',
           awaitingOptIn: 'false',
         })}`,
  returning: 'id, status',
});

/** The one email of a test send: no contact, no tracking, never counted in the campaign. */
export async function queueTestEmail(
  sql: Sql,
  {
    id,
    projectId,
    domainId,
    campaign,
    to,
    deliveryQueue,
  }: {
    id: string;
    projectId: string;
    domainId: string;
    campaign: CampaignRow;
    to: string;
    deliveryQueue: string;
  },
): Promise<{ id: string; status: AcceptedEmailStatus }> {
  const [row] = await sql.query<{ id: string; status: AcceptedEmailStatus }>(
    QUEUE_TEST_EMAIL_SQL,
    TEST_EMAIL.values({
      ...campaign,
      id,
      project_id: projectId,
      domain_id: domainId,
      to_address: to,
      subject: `[TEST] ${campaign.subject}`,
      delivery_queue: deliveryQueue,
    }),
  );
  if (!row) throw new Error('The test email insert returned no row');
  return row;
}
