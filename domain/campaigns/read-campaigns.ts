import {
  campaignStats as campaignStatsRows,
  countCampaigns,
  listCampaignRows,
  type CampaignEmailFigureCounts,
} from '../../db/sql/campaigns.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { rate } from '../shared/rates.pure.js';
import { cursorPage, decodeCursor, type CursorPage } from '../shared/pagination.js';
import type { CampaignStatus } from './campaign-status.pure.js';
import { toCampaignView, type CampaignView } from './campaign-view.js';
import { requireCampaign } from './campaign-rules.js';

// Reading campaigns: one, a page of them, and a campaign's figures.

export async function getCampaign({
  sql,
  projectId,
  campaignId,
}: {
  sql: Sql;
  projectId: string;
  campaignId: string;
}): Promise<CampaignView> {
  return toCampaignView(await requireCampaign(sql, projectId, campaignId));
}

export async function listCampaigns({
  sql,
  projectId,
  statuses,
  limit,
  cursor,
}: {
  sql: Sql;
  projectId: string;
  statuses?: CampaignStatus[];
  limit: number;
  cursor?: string;
}): Promise<CursorPage<CampaignView>> {
  const [rows, total] = await Promise.all([
    listCampaignRows(sql, {
      projectId,
      statuses,
      afterId: cursor ? decodeCursor(cursor).id : undefined,
      limit,
    }),
    cursor ? undefined : countCampaigns(sql, { projectId, statuses }),
  ]);
  return cursorPage({
    rows: rows.map(toCampaignView),
    limit,
    total,
    positionOf: (c) => ({ sort: c.id, id: c.id }),
  });
}

export interface CampaignStats extends CampaignEmailFigureCounts {
  recipients: number;
  failed: number;
  skipped: number;
  /** Recipients whose email was never handed to SMTP because the campaign was cancelled. */
  cancelled: number;
  /** Recipients waiting to be queued, and emails waiting for SMTP. */
  pending: number;
  queued: number;
  openRate: number;
  clickRate: number;
  bounceRate: number;
}

/** decisions.md's figures, counted from rows; rates are fractions of sent. */
export async function getCampaignStats({
  sql,
  projectId,
  campaignId,
}: {
  sql: Sql;
  projectId: string;
  campaignId: string;
}): Promise<CampaignStats> {
  await requireCampaign(sql, projectId, campaignId);
  const s = await campaignStatsRows(sql, { campaignId });
  return {
    recipients: s.recipients,
    sent: s.sent,
    delivered: s.delivered,
    opened: s.opened,
    clicked: s.clicked,
    bounced: s.bounced,
    complained: s.complained,
    unsubscribed: s.unsubscribed,
    failed: s.failed,
    skipped: s.skipped,
    cancelled: s.unqueued_cancelled + s.cancelled,
    pending: s.pending,
    queued: s.queued,
    openRate: rate(s.opened, s.sent),
    clickRate: rate(s.clicked, s.sent),
    bounceRate: rate(s.bounced, s.sent),
  };
}
