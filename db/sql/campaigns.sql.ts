import { domainCoversHost } from './domain-match.js';
import type { AcceptedEmailStatus } from '../../domain/sending/email-status.pure.js';
import type { AudienceType, CampaignStatus } from '../../domain/campaigns/campaign-status.pure.js';
import type { Filter } from '../../domain/segments/filter/ast.pure.js';
import type { SqlFragment } from '../../domain/segments/filter/compile-sql.pure.js';
import type { Sql } from './sql.js';

export interface CampaignRow {
  id: string;
  project_id: string;
  name: string;
  description: string | null;
  subject: string;
  body: string;
  from_address: string;
  from_name: string | null;
  reply_to: string | null;
  template_id: string | null;
  audience_type: AudienceType;
  segment_id: string | null;
  audience_filter: Record<string, unknown> | null;
  status: CampaignStatus;
  scheduled_at: Date | null;
  started_at: Date | null;
  snapshot_at: Date | null;
  finished_at: Date | null;
  cancelled_at: Date | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What a campaign is made of, as create and PUT write it. */
export interface CampaignContent {
  name: string;
  description: string | null;
  subject: string;
  body: string;
  fromAddress: string;
  fromName: string | null;
  replyTo: string | null;
  templateId: string | null;
  audienceType: AudienceType;
  segmentId: string | null;
  audienceFilter: unknown;
  /** What the audience filter reads, for the usage endpoints. */
  references: { fields: string[]; events: string[]; segments: string[] };
}

const contentParams = (c: CampaignContent) => [
  c.name,
  c.description,
  c.subject,
  c.body,
  c.fromAddress,
  c.fromName,
  c.replyTo,
  c.templateId,
  c.audienceType,
  c.segmentId,
  c.audienceFilter === null ? null : JSON.stringify(c.audienceFilter),
  c.references.fields,
  c.references.events,
  c.references.segments,
];

export async function insertCampaign(
  sql: Sql,
  { id, projectId, content }: { id: string; projectId: string; content: CampaignContent },
): Promise<CampaignRow> {
  const [row] = await sql.query<CampaignRow>(
    `INSERT INTO campaigns (id, project_id, name, description, subject, body, from_address,
                            from_name, reply_to, template_id, audience_type, segment_id,
                            audience_filter, referenced_fields, referenced_events,
                            referenced_segments, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15, $16::uuid[],
             'DRAFT', now(), now())
     RETURNING *`,
    [id, projectId, ...contentParams(content)],
  );
  if (!row) throw new Error('The campaign insert returned no row');
  return row;
}

/** Replaces a DRAFT campaign's content; undefined when it is not (or no longer) a draft. */
export async function replaceDraftCampaign(
  sql: Sql,
  {
    projectId,
    campaignId,
    content,
  }: { projectId: string; campaignId: string; content: CampaignContent },
): Promise<CampaignRow | undefined> {
  const [row] = await sql.query<CampaignRow>(
    `UPDATE campaigns SET name = $3, description = $4, subject = $5, body = $6, from_address = $7,
            from_name = $8, reply_to = $9, template_id = $10, audience_type = $11, segment_id = $12,
            audience_filter = $13::jsonb, referenced_fields = $14, referenced_events = $15,
            referenced_segments = $16::uuid[], updated_at = now()
      WHERE id = $1 AND project_id = $2 AND status = 'DRAFT'
      RETURNING *`,
    [campaignId, projectId, ...contentParams(content)],
  );
  return row;
}

export async function findCampaign(
  sql: Sql,
  { projectId, campaignId }: { projectId: string; campaignId: string },
): Promise<CampaignRow | undefined> {
  const [row] = await sql.query<CampaignRow>(
    'SELECT * FROM campaigns WHERE id = $1 AND project_id = $2',
    [campaignId, projectId],
  );
  return row;
}

/** Newest first, after `afterId` (ids are time-ordered), `limit + 1` rows for the page builder. */
export async function listCampaignRows(
  sql: Sql,
  {
    projectId,
    statuses,
    afterId,
    limit,
  }: { projectId: string; statuses?: CampaignStatus[]; afterId?: string; limit: number },
): Promise<CampaignRow[]> {
  return sql.query<CampaignRow>(
    `SELECT * FROM campaigns
      WHERE project_id = $1 AND ($2::text[] IS NULL OR status = ANY($2::text[]))
        AND ($3::uuid IS NULL OR id < $3::uuid)
      ORDER BY id DESC LIMIT $4`,
    [projectId, statuses ?? null, afterId ?? null, limit + 1],
  );
}

export async function countCampaigns(
  sql: Sql,
  { projectId, statuses }: { projectId: string; statuses?: CampaignStatus[] },
): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM campaigns
      WHERE project_id = $1 AND ($2::text[] IS NULL OR status = ANY($2::text[]))`,
    [projectId, statuses ?? null],
  );
  return row?.n ?? 0;
}

/** Deletes a campaign that is not SCHEDULED or SENDING; answers the status it had, if any. */
export async function deleteIdleCampaign(
  sql: Sql,
  { projectId, campaignId }: { projectId: string; campaignId: string },
): Promise<{ deleted: boolean; status: CampaignStatus | null }> {
  const [row] = await sql.query<{ deleted: boolean; status: CampaignStatus }>(
    `WITH gone AS (
       DELETE FROM campaigns WHERE id = $1 AND project_id = $2
          AND status NOT IN ('SCHEDULED', 'SENDING')
       RETURNING id)
     SELECT EXISTS (SELECT 1 FROM gone) AS deleted,
            (SELECT status FROM campaigns WHERE id = $1 AND project_id = $2) AS status`,
    [campaignId, projectId],
  );
  return { deleted: row?.deleted ?? false, status: row?.status ?? null };
}

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

/** Who a campaign goes to, as its send reads it. */
export async function findCampaignAudience(
  sql: Sql,
  { campaignId }: { campaignId: string },
): Promise<
  | {
      project_id: string;
      audience_type: AudienceType;
      segment_id: string | null;
      audience_filter: Filter | null;
    }
  | undefined
> {
  const [row] = await sql.query<{
    project_id: string;
    audience_type: AudienceType;
    segment_id: string | null;
    audience_filter: Filter | null;
  }>('SELECT project_id, audience_type, segment_id, audience_filter FROM campaigns WHERE id = $1', [
    campaignId,
  ]);
  return row;
}

export interface SnapshotCounts {
  recipients: number;
  skipped: number;
}

const SKIP_REASON_SQL = (contact: string) => `CASE
    WHEN EXISTS (SELECT 1 FROM suppressions s
                  WHERE s.project_id = ${contact}.project_id AND s.email = ${contact}.email)
      THEN 'suppressed'
    WHEN NOT ${contact}.subscribed THEN 'unsubscribed' END`;

/**
 * Freezes a SENDING campaign's audience into recipient rows with one INSERT ... SELECT, once:
 * the campaign row is locked and marked in the same transaction, so a retried attempt finds the
 * snapshot made and only counts it. Unsubscribed and suppressed contacts are SKIPPED with the
 * reason. `audience` is a compiled filter over `contacts c` (undefined: every contact).
 * Undefined when the campaign is not SENDING.
 */
export async function snapshotRecipients(
  sql: Sql,
  {
    campaignId,
    projectId,
    audience,
    charge,
  }: {
    campaignId: string;
    projectId: string;
    audience: SqlFragment | undefined;
    /** Runs in the snapshot's transaction with the recipients to be sent; a throw undoes it. */
    charge?: (tx: Sql, pending: number) => Promise<void>;
  },
): Promise<SnapshotCounts | undefined> {
  return sql.transaction(async (tx) => {
    const [campaign] = await tx.query<{ snapshot_at: Date | null }>(
      `SELECT snapshot_at FROM campaigns WHERE id = $1 AND status = 'SENDING' FOR UPDATE`,
      [campaignId],
    );
    if (!campaign) return undefined;
    if (!campaign.snapshot_at) {
      const n = audience?.params.length ?? 0;
      const [inserted] = await tx.query<{ pending: number }>(
        `WITH inserted AS (
           INSERT INTO campaign_recipients (campaign_id, contact_id, status, skip_reason)
           SELECT $${n + 1}::uuid, c.id,
                  CASE WHEN r.reason IS NULL THEN 'PENDING' ELSE 'SKIPPED' END, r.reason
             FROM contacts c
             -- One hash join against the project's suppressions, not a probe per contact.
             LEFT JOIN suppressions s ON s.project_id = c.project_id AND s.email = c.email
             CROSS JOIN LATERAL (SELECT CASE WHEN s.email IS NOT NULL THEN 'suppressed'
                                             WHEN NOT c.subscribed THEN 'unsubscribed' END AS reason) r
            WHERE c.project_id = $${n + 2}::uuid AND (${audience?.text ?? 'true'})
           ON CONFLICT DO NOTHING
           RETURNING status)
         SELECT count(*) FILTER (WHERE status = 'PENDING')::int AS pending FROM inserted`,
        [...(audience?.params ?? []), campaignId, projectId],
      );
      await charge?.(tx, inserted?.pending ?? 0);
      await tx.query('UPDATE campaigns SET snapshot_at = now() WHERE id = $1', [campaignId]);
    }
    return countRecipients(tx, { campaignId });
  });
}

/** The contacts of an audience a send would reach now (not unsubscribed, not suppressed). */
export async function countReachableAudience(
  sql: Sql,
  { projectId, audience }: { projectId: string; audience: SqlFragment | undefined },
): Promise<number> {
  const n = audience?.params.length ?? 0;
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM contacts c
      WHERE c.project_id = $${n + 1}::uuid AND (${audience?.text ?? 'true'})
        AND (${SKIP_REASON_SQL('c')}) IS NULL`,
    [...(audience?.params ?? []), projectId],
  );
  return row?.n ?? 0;
}

export async function countRecipients(
  sql: Sql,
  { campaignId }: { campaignId: string },
): Promise<SnapshotCounts> {
  const [row] = await sql.query<SnapshotCounts>(
    `SELECT count(*)::int AS recipients, count(*) FILTER (WHERE status = 'SKIPPED')::int AS skipped
       FROM campaign_recipients WHERE campaign_id = $1`,
    [campaignId],
  );
  return row ?? { recipients: 0, skipped: 0 };
}

/**
 * Queues the emails of up to `limit` PENDING recipients of a SENDING campaign in ONE statement:
 * an email row each (unique per campaign and contact, so a retried batch writes none twice),
 * rendered at delivery from the contact's data as it is now; recipients who unsubscribed, were
 * suppressed or deleted since the snapshot are SKIPPED instead. The campaign row is read FOR
 * SHARE, so a cancel either waits for this batch (and then cancels its emails) or makes it queue
 * nothing. Answers how many recipients it took (0: none left, or no longer SENDING).
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
       SELECT id, project_id, template_id, subject, body, from_address, from_name, reply_to
         FROM campaigns WHERE id = $1 AND status = 'SENDING' FOR SHARE),
     picked AS (
       SELECT r.contact_id FROM campaign_recipients r
        WHERE r.campaign_id = $1 AND r.status = 'PENDING' AND EXISTS (SELECT 1 FROM campaign)
        ORDER BY r.contact_id LIMIT $4
        FOR UPDATE OF r SKIP LOCKED),
     judged AS (
       SELECT p.contact_id, c.email, c.data,
              CASE WHEN c.id IS NULL THEN 'deleted' ELSE ${SKIP_REASON_SQL('c')} END AS reason
         FROM picked p LEFT JOIN contacts c ON c.id = p.contact_id),
     queued AS (
       INSERT INTO emails (id, project_id, contact_id, template_id, domain_id, to_address, to_name,
                           from_address, from_name, reply_to, subject, body, type, status, headers,
                           variables, attachment_ids, delivery_queue, created_at, campaign_id)
       SELECT uuid_generate_v7(), k.project_id, j.contact_id, k.template_id, $2::uuid, j.email, NULL,
              k.from_address, k.from_name, k.reply_to, k.subject, k.body, 'MARKETING', 'QUEUED',
              '{}'::jsonb,
              j.data || jsonb_build_object('email', j.email, 'id', j.contact_id,
                'svc_id', j.contact_id, 'svc_email', j.email),
              '{}'::uuid[], $3, now(), k.id
         FROM judged j CROSS JOIN campaign k
        WHERE j.reason IS NULL
       ON CONFLICT (campaign_id, contact_id) WHERE campaign_id IS NOT NULL DO NOTHING
       RETURNING id, contact_id),
     marked AS (
       UPDATE campaign_recipients r
          SET status = CASE WHEN j.reason IS NULL THEN 'QUEUED' ELSE 'SKIPPED' END,
              skip_reason = j.reason, email_id = q.id
         FROM judged j LEFT JOIN queued q ON q.contact_id = j.contact_id
        WHERE r.campaign_id = $1 AND r.contact_id = j.contact_id
        RETURNING r.status)
     SELECT count(*)::int AS taken, count(*) FILTER (WHERE status = 'QUEUED')::int AS queued
       FROM marked`,
    [campaignId, domainId, deliveryQueue, limit],
    'queue-campaign-batch',
  );
  return row ?? { taken: 0, queued: 0 };
}

/** How far a campaign's send has come: its status, recipients still to queue, mail still queued. */
export async function campaignProgress(
  sql: Sql,
  { campaignId }: { campaignId: string },
): Promise<{ status: CampaignStatus | null; pending: number; queued: number }> {
  const [row] = await sql.query<{ status: CampaignStatus | null; pending: number; queued: number }>(
    `SELECT (SELECT status FROM campaigns WHERE id = $1) AS status,
            (SELECT count(*)::int FROM campaign_recipients
              WHERE campaign_id = $1 AND status = 'PENDING') AS pending,
            (SELECT count(*)::int FROM emails
              WHERE campaign_id = $1 AND status = 'QUEUED') AS queued`,
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

export interface CampaignStatsRow extends CampaignEmailFigureCounts {
  recipients: number;
  skipped: number;
  pending: number;
  unqueued_cancelled: number;
  queued: number;
  failed: number;
  cancelled: number;
}

/** The counts CAMPAIGN_EMAIL_FIGURES answers, one column each. */
export interface CampaignEmailFigureCounts {
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
}

/**
 * What a campaign's email rows say, as aggregates over `emails`: each a count of rows that reached
 * the state, from the first-time moments on the row, so a duplicated callback counts once.
 */
export const CAMPAIGN_EMAIL_FIGURES = `count(sent_at)::int AS sent,
  count(*) FILTER (WHERE status = 'DELIVERED' OR delivered_at IS NOT NULL)::int AS delivered,
  count(opened_at)::int AS opened, count(clicked_at)::int AS clicked,
  count(bounced_at)::int AS bounced, count(complained_at)::int AS complained,
  count(unsubscribed_at)::int AS unsubscribed`;

/** A campaign's figures, counted from its recipient and email rows (never from counters). */
export async function campaignStats(
  sql: Sql,
  { campaignId }: { campaignId: string },
): Promise<CampaignStatsRow> {
  const [row] = await sql.query<CampaignStatsRow>(
    `SELECT r.recipients, r.skipped, r.pending, r.unqueued_cancelled, e.*
       FROM (SELECT count(*)::int AS recipients,
                    count(*) FILTER (WHERE status = 'SKIPPED')::int AS skipped,
                    count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
                    count(*) FILTER (WHERE status = 'CANCELLED')::int AS unqueued_cancelled
               FROM campaign_recipients WHERE campaign_id = $1) r,
            (SELECT count(*) FILTER (WHERE status = 'QUEUED')::int AS queued,
                    ${CAMPAIGN_EMAIL_FIGURES},
                    count(*) FILTER (WHERE status = 'FAILED')::int AS failed,
                    count(*) FILTER (WHERE status = 'CANCELLED')::int AS cancelled
               FROM emails WHERE campaign_id = $1) e`,
    [campaignId],
  );
  if (!row) throw new Error('The campaign stats query returned no row');
  return row;
}

/** Campaigns of the project whose audience reads a field, an event or a segment. */
export async function campaignsReferencing(
  sql: Sql,
  {
    projectId,
    segmentId,
    field,
    event,
    templateId,
    activeOnly = false,
  }: {
    projectId: string;
    segmentId?: string;
    field?: string;
    event?: string;
    templateId?: string;
    activeOnly?: boolean;
  },
): Promise<{ id: string; name: string; status: CampaignStatus }[]> {
  return sql.query<{ id: string; name: string; status: CampaignStatus }>(
    `SELECT id, name, status FROM campaigns
      WHERE project_id = $1
        AND ($2::uuid IS NULL OR segment_id = $2::uuid OR $2::uuid = ANY(referenced_segments))
        AND ($3::text IS NULL OR $3::text = ANY(referenced_fields))
        AND ($4::text IS NULL OR $4::text = ANY(referenced_events))
        AND ($5::uuid IS NULL OR template_id = $5::uuid)
        AND (NOT $6::boolean OR status IN ('SCHEDULED', 'SENDING'))
      ORDER BY created_at, id`,
    [projectId, segmentId ?? null, field ?? null, event ?? null, templateId ?? null, activeOnly],
  );
}

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
    `INSERT INTO emails (id, project_id, contact_id, template_id, domain_id, to_address, from_address,
                         from_name, reply_to, subject, body, type, status, headers, variables,
                         attachment_ids, suppression_reason, delivery_queue, created_at, tracking)
     SELECT $1::uuid, $2::uuid, NULL, $3::uuid, $4::uuid, $5, $6, $7, $8, $9, $10, 'MARKETING',
            CASE WHEN s.reason IS NULL THEN 'QUEUED' ELSE 'SUPPRESSED' END, '{}'::jsonb,
            coalesce(c.data, '{}'::jsonb) || jsonb_build_object('email', $5::text),
            '{}'::uuid[], s.reason, $11, now(), false
       FROM (SELECT 1) one
       LEFT JOIN contacts c ON c.project_id = $2::uuid AND c.email = $5
       LEFT JOIN suppressions s ON s.project_id = $2::uuid AND s.email = $5
     RETURNING id, status`,
    [
      id,
      projectId,
      campaign.template_id,
      domainId,
      to,
      campaign.from_address,
      campaign.from_name,
      campaign.reply_to,
      `[TEST] ${campaign.subject}`,
      campaign.body,
      deliveryQueue,
    ],
  );
  if (!row) throw new Error('The test email insert returned no row');
  return row;
}
