import { SERVICE_EVENT_NAME_PATTERN } from '../../domain/events/event-names.pure.js';
import type {
  CampaignMetric,
  EmailEventName,
  Granularity,
} from '../../domain/insights/activity-type.pure.js';
import { bucketSeconds, bucketStarts } from '../../domain/insights/buckets.pure.js';
import { campaignFigures, type CampaignEmailFigureCounts } from './campaign-figures.sql.js';
import { PROJECT_EVENT_NAMES_CTE } from './events.sql.js';
import { wholeHours, windowCountsCte } from './email-event-hours.sql.js';
import type { Sql } from './sql.js';

// Buckets by date_bin from a Monday at midnight UTC: the same cuts as date_trunc in UTC (hours,
// days, ISO weeks), in integer arithmetic on the timestamps, where date_trunc of each row
// AT TIME ZONE 'UTC' converted it and read the unit's name row by row.
const MONDAY = "timestamptz '2000-01-03 00:00:00+00'";

/**
 * Counts per bucket and event name of `names` (each `email.*`) in [from, to), every bucket of the
 * window present (bucketStarts), buckets cut in UTC whatever the session's time zone. Buckets are
 * whole UTC hours, so each sums the window's hours (windowCountsCte: kept counts, the partial
 * first and last hours counted from the events). The statement answers only the buckets and
 * names that have events, as plain numbers; the empty buckets and the map per bucket are made
 * here (a join with every bucket and a `jsonb_object_agg` per bucket were a third of a 7-day
 * hourly series' time in PostgreSQL on bench:insights' data).
 */
export async function eventTimeseries(
  sql: Sql,
  {
    projectId,
    names,
    from,
    to,
    granularity,
  }: {
    projectId: string;
    names: EmailEventName[];
    from: Date;
    to: Date;
    granularity: Granularity;
  },
): Promise<{ bucket: Date; counts: Record<string, number> }[]> {
  const { lo, hi } = wholeHours({ from, to });
  const rows = await sql.query<{ at: number; name: string; n: number }>(
    `WITH ${windowCountsCte({ lo: '$5', hi: '$6', bucket: (at) => `date_bin(make_interval(secs => $7), ${at}, ${MONDAY})` })}
     SELECT extract(epoch FROM bucket)::float8 * 1000 AS at, name, n::int AS n FROM window_counts`,
    [projectId, names, from, to, lo, hi, bucketSeconds(granularity)],
  );
  const counts = new Map<number, Record<string, number>>(
    bucketStarts({ from, to, granularity }).map((at) => [at, {}]),
  );
  for (const row of rows) {
    const bucket = counts.get(row.at);
    if (bucket) bucket[row.name] = row.n;
  }
  return [...counts].map(([at, byName]) => ({ bucket: new Date(at), counts: byName }));
}

export interface CampaignFiguresRow extends CampaignEmailFigureCounts {
  id: string;
  name: string;
  status: string;
  started_at: Date | null;
}

// Rates of the sent emails that tracked them (engagementRates); untracked campaigns last.
const METRIC_ORDER: Record<CampaignMetric, string> = {
  sent: 'f.sent DESC',
  openRate: 'f.opened::float8 / nullif(f.open_tracked_sent, 0) DESC NULLS LAST',
  clickRate: 'f.clicked::float8 / nullif(f.click_tracked_sent, 0) DESC NULLS LAST',
};

/** The campaigns that sent mail, best first by `metric`, with their kept email figures. */
export async function topCampaigns(
  sql: Sql,
  { projectId, metric, limit }: { projectId: string; metric: CampaignMetric; limit: number },
): Promise<CampaignFiguresRow[]> {
  return sql.query<CampaignFiguresRow>(
    `SELECT c.id, c.name, c.status, c.started_at, f.*
       FROM campaigns c
       CROSS JOIN LATERAL (${campaignFigures('c.id')}) f
      WHERE c.project_id = $1 AND f.sent > 0
      ORDER BY ${METRIC_ORDER[metric]}, c.started_at DESC, c.id LIMIT $2`,
    [projectId, limit],
  );
}

/** Every campaign that began sending (newest first), with its kept email figures. */
export async function campaignBreakdown(
  sql: Sql,
  { projectId, limit }: { projectId: string; limit: number },
): Promise<CampaignFiguresRow[]> {
  return sql.query<CampaignFiguresRow>(
    `SELECT c.id, c.name, c.status, c.started_at, f.*
       FROM campaigns c
       CROSS JOIN LATERAL (${campaignFigures('c.id')}) f
      WHERE c.project_id = $1 AND c.started_at IS NOT NULL
      ORDER BY c.started_at DESC, c.id LIMIT $2`,
    [projectId, limit],
  );
}

/** The most frequent names the project tracked itself (not the service's own) in [from, to). */
export async function topCustomEvents(
  sql: Sql,
  { projectId, from, to, limit }: { projectId: string; from: Date; to: Date; limit: number },
): Promise<{ name: string; count: number }[]> {
  // The project's names by a skip scan of (project_id, name, created_at), then each custom
  // name's count in the window from the same index: the service's own (most) events are never
  // read one by one.
  return sql.query(
    `WITH RECURSIVE ${PROJECT_EVENT_NAMES_CTE}
     SELECT name, count FROM (
       SELECT n.name,
              (SELECT count(*)::int FROM events e
                WHERE e.project_id = $1 AND e.name = n.name
                  AND e.created_at >= $2 AND e.created_at < $3) AS count
         FROM names n
        WHERE n.name IS NOT NULL
          AND n.name !~ $5) c
      WHERE count > 0
      ORDER BY count DESC, name LIMIT $4`,
    [projectId, from, to, limit, SERVICE_EVENT_NAME_PATTERN],
  );
}
