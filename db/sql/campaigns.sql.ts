import type { AudienceType, CampaignStatus } from '../../domain/campaigns/campaign-status.pure.js';
import type { TrackingKind } from '../../domain/tracking/tracking-choice.pure.js';
import {
  campaignFigures,
  type CampaignEmailFigureCounts,
  type CampaignSendCounts,
} from './campaign-figures.sql.js';
import { assignmentList, columnList, namedParams, placeholderList } from './named-params.js';
import { findOwnedRow, statusListing } from './rows.js';
import type { InProject, Sql } from './sql.js';

// Campaign rows: drafts written and read, and a campaign's figures counted from its rows.

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
  /** Its own tracking setting; null: the template's, then the project's decides. */
  open_tracking: boolean | null;
  click_tracking: boolean | null;
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
  tracking: Record<TrackingKind, boolean | null>;
  /** What the audience filter reads, for the usage endpoints. */
  references: { fields: string[]; events: string[]; segments: string[] };
}

/** The columns create and PUT write, in one record: both statements are built from it. */
const CONTENT = namedParams(
  {
    name: null,
    description: null,
    subject: null,
    body: null,
    from_address: null,
    from_name: null,
    reply_to: null,
    template_id: null,
    audience_type: null,
    segment_id: null,
    audience_filter: 'jsonb',
    referenced_fields: null,
    referenced_events: null,
    referenced_segments: 'uuid[]',
    open_tracking: 'boolean',
    click_tracking: 'boolean',
  },
  { first: 3 },
);

const contentValues = (c: CampaignContent) =>
  CONTENT.values({
    name: c.name,
    description: c.description,
    subject: c.subject,
    body: c.body,
    from_address: c.fromAddress,
    from_name: c.fromName,
    reply_to: c.replyTo,
    template_id: c.templateId,
    audience_type: c.audienceType,
    segment_id: c.segmentId,
    audience_filter: c.audienceFilter === null ? null : JSON.stringify(c.audienceFilter),
    referenced_fields: c.references.fields,
    referenced_events: c.references.events,
    referenced_segments: c.references.segments,
    open_tracking: c.tracking.opens,
    click_tracking: c.tracking.clicks,
  });

const INSERT_CAMPAIGN_SQL = `INSERT INTO campaigns (id, project_id, ${columnList(CONTENT)},
                            status, created_at, updated_at)
     VALUES ($1, $2, ${placeholderList(CONTENT)}, 'DRAFT', now(), now())
     RETURNING *`;

const REPLACE_DRAFT_SQL = `UPDATE campaigns SET ${assignmentList(CONTENT)}, updated_at = now()
      WHERE id = $1 AND project_id = $2 AND status = 'DRAFT'
      RETURNING *`;

export async function insertCampaign(
  sql: Sql,
  { id, projectId, content }: { id: string; projectId: string; content: CampaignContent },
): Promise<CampaignRow> {
  const [row] = await sql.query<CampaignRow>(INSERT_CAMPAIGN_SQL, [
    id,
    projectId,
    ...contentValues(content),
  ]);
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
  const [row] = await sql.query<CampaignRow>(REPLACE_DRAFT_SQL, [
    campaignId,
    projectId,
    ...contentValues(content),
  ]);
  return row;
}

export const findCampaign = (sql: Sql, ids: { projectId: string; campaignId: string }) =>
  findOwnedRow<CampaignRow>(
    sql,
    { table: 'campaigns' },
    { id: ids.campaignId, ownerId: ids.projectId },
  );

/** Newest first, after `afterId` (ids are time-ordered), `limit + 1` rows for the page builder. */
export const { list: listCampaignRows, count: countCampaigns } = statusListing<
  CampaignRow,
  CampaignStatus,
  'projectId'
>({ from: 'campaigns x', owner: ['projectId', 'project_id'], columns: '*' });

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

export type CampaignStatsRow = CampaignEmailFigureCounts & CampaignSendCounts;

/** A campaign's figures, from the counts kept of its email and recipient rows. */
export async function campaignStats(
  sql: Sql,
  { campaignId }: { campaignId: string },
): Promise<CampaignStatsRow> {
  const [row] = await sql.query<CampaignStatsRow>(campaignFigures('$1', { send: true }), [
    campaignId,
  ]);
  if (!row) throw new Error('The campaign stats query returned no row');
  return row;
}

/** What campaigns may be asked about: reading a segment, field, event or template; active only. */
interface References {
  segmentId?: string;
  field?: string;
  event?: string;
  templateId?: string;
  activeOnly?: boolean;
}

/** Campaigns of the project whose audience reads a field, an event or a segment. */
export async function campaignsReferencing(
  sql: Sql,
  { projectId, segmentId, field, event, templateId, activeOnly = false }: InProject & References,
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
