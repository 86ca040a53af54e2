import {
  campaignStats as campaignStatsRows,
  countCampaigns,
  listCampaignRows,
} from '../../db/sql/campaigns.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { rate } from '../shared/rates.pure.js';
import { engagementRates, type EngagementCounts } from './engagement-rates.js';
import { newestFirstPage, type CursorPage, type PageRequest } from '../shared/pagination.js';
import type { CampaignStatus } from './campaign-status.pure.js';
import { toCampaignView, type CampaignView } from './campaign-view.js';
import { requireCampaign, type CampaignRef } from './campaign-rules.js';

// Reading campaigns: one, a page of them, and a campaign's figures.

export async function getCampaign({
  sql,
  projectId,
  campaignId,
}: CampaignRef): Promise<CampaignView> {
  return toCampaignView(await requireCampaign(sql, projectId, campaignId));
}

export const listCampaigns = ({
  sql,
  projectId,
  statuses,
  ...page
}: PageRequest & {
  sql: Sql;
  projectId: string;
  statuses?: CampaignStatus[];
}): Promise<CursorPage<CampaignView>> =>
  newestFirstPage(page, {
    rows: (after) => listCampaignRows(sql, { projectId, statuses, ...after }),
    count: () => countCampaigns(sql, { projectId, statuses }),
    view: toCampaignView,
  });

export interface CampaignStats extends EngagementCounts {
  recipients: number;
  failed: number;
  skipped: number;
  /** Recipients whose email was never handed to SMTP because the campaign was cancelled. */
  cancelled: number;
  /** Recipients waiting to be queued, and emails waiting for SMTP. */
  pending: number;
  queued: number;
  /** Null when the campaign's emails did not track it ("not tracked", not 0 %). */
  openRate: number | null;
  clickRate: number | null;
  bounceRate: number;
}

/** decisions.md's figures, from the rows and the emails' kept counts; rates are fractions of sent. */
export async function getCampaignStats({
  sql,
  projectId,
  campaignId,
}: CampaignRef): Promise<CampaignStats> {
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
    ...engagementRates(s),
    bounceRate: rate(s.bounced, s.sent),
  };
}
