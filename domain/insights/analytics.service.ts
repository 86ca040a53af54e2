import {
  campaignBreakdown,
  eventTimeseries,
  topCampaigns as topCampaignRows,
  topCustomEvents,
  type CampaignFiguresRow,
} from '../../db/sql/analytics.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { engagementRates, type EngagementCounts } from '../campaigns/engagement-rates.js';
import { rate } from '../shared/rates.pure.js';
import {
  ACTIVITY_EVENT,
  SERIES,
  type CampaignMetric,
  type Granularity,
} from './activity-type.pure.js';
import { resolveWindow, type LimitedRead } from './window.js';

type Series = (typeof SERIES)[number];

/** Buckets in UTC from `from` to `to`, every series in each (0 when nothing happened). */
export async function timeseries({
  sql,
  projectId,
  granularity,
  ...window
}: {
  sql: Sql;
  projectId: string;
  from?: Date;
  to?: Date;
  granularity: Granularity;
}): Promise<{
  from: string;
  to: string;
  granularity: Granularity;
  buckets: ({ start: string } & Record<Series, number>)[];
}> {
  const { from, to } = resolveWindow(window);
  const rows = await eventTimeseries(sql, {
    projectId,
    names: SERIES.map((s) => ACTIVITY_EVENT[s]),
    from,
    to,
    granularity,
  });
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    granularity,
    buckets: rows.map((row) => ({
      start: new Date(row.bucket).toISOString(),
      ...(Object.fromEntries(SERIES.map((s) => [s, row.counts[ACTIVITY_EVENT[s]] ?? 0])) as Record<
        Series,
        number
      >),
    })),
  };
}

export interface CampaignFigures extends EngagementCounts {
  id: string;
  name: string;
  status: string;
  startedAt: string | null;
  /** Null when the campaign's emails did not track it. */
  openRate: number | null;
  clickRate: number | null;
  bounceRate: number;
}

function toFigures(row: CampaignFiguresRow): CampaignFigures {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    startedAt: row.started_at ? new Date(row.started_at).toISOString() : null,
    sent: row.sent,
    delivered: row.delivered,
    opened: row.opened,
    clicked: row.clicked,
    bounced: row.bounced,
    complained: row.complained,
    unsubscribed: row.unsubscribed,
    ...engagementRates(row),
    bounceRate: rate(row.bounced, row.sent),
  };
}

export async function topCampaigns({
  sql,
  projectId,
  metric,
  limit,
}: {
  sql: Sql;
  projectId: string;
  metric: CampaignMetric;
  limit: number;
}): Promise<{ metric: CampaignMetric; campaigns: CampaignFigures[] }> {
  const rows = await topCampaignRows(sql, { projectId, metric, limit });
  return { metric, campaigns: rows.map(toFigures) };
}

export async function campaignStatsBreakdown({
  sql,
  projectId,
  limit,
}: LimitedRead): Promise<{ campaigns: CampaignFigures[] }> {
  return { campaigns: (await campaignBreakdown(sql, { projectId, limit })).map(toFigures) };
}

export async function topEvents({
  sql,
  projectId,
  limit,
  ...window
}: {
  sql: Sql;
  projectId: string;
  from?: Date;
  to?: Date;
  limit: number;
}): Promise<{ from: string; to: string; events: { name: string; count: number }[] }> {
  const { from, to } = resolveWindow(window);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    events: await topCustomEvents(sql, { projectId, from, to, limit }),
  };
}
