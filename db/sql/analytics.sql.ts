import { SERVICE_EVENT_NAME_PATTERN } from '../../domain/events/event-names.pure.js';
import {
  GRANULARITY_UNIT,
  type CampaignMetric,
  type Granularity,
} from '../../domain/insights/activity-type.pure.js';
import { timeUnitMs } from '../../domain/shared/time-unit.pure.js';
import { CAMPAIGN_EMAIL_FIGURES, type CampaignEmailFigureCounts } from './campaigns.sql.js';
import { PROJECT_EVENT_NAMES_CTE } from './events.sql.js';
import type { Sql } from './sql.js';

/** Up to this many bucket-and-name counts, each is its own index range count. */
const RANGE_COUNTS_MAX = 2_500;

/**
 * Counts per bucket and event name of `names` in [from, to), every bucket of the window present,
 * buckets cut in UTC whatever the session's time zone. A window of few buckets counts each
 * bucket and name with an index-only range count on (project_id, name, created_at); a long one
 * (hours over months) groups the window's rows once instead.
 */
export async function eventTimeseries(
  sql: Sql,
  {
    projectId,
    names,
    from,
    to,
    granularity,
  }: { projectId: string; names: string[]; from: Date; to: Date; granularity: Granularity },
): Promise<{ bucket: Date; counts: Record<string, number> }[]> {
  const buckets = `buckets AS (
       SELECT generate_series(date_trunc($5, $3::timestamptz AT TIME ZONE 'UTC'),
                              ($4::timestamptz AT TIME ZONE 'UTC') - interval '1 microsecond',
                              ('1 ' || $5)::interval) AS bucket)`;
  const rangeCounts =
    ((to.getTime() - from.getTime()) / timeUnitMs(GRANULARITY_UNIT[granularity]) + 1) *
      names.length <=
    RANGE_COUNTS_MAX;
  const text = rangeCounts
    ? `WITH ${buckets}
       SELECT b.bucket AT TIME ZONE 'UTC' AS bucket, jsonb_object_agg(n.name, c.n) AS counts
         FROM buckets b CROSS JOIN unnest($2::text[]) AS n(name)
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS n FROM events e
            WHERE e.project_id = $1 AND e.name = n.name
              AND e.created_at >= greatest(b.bucket AT TIME ZONE 'UTC', $3)
              AND e.created_at < least((b.bucket + ('1 ' || $5)::interval) AT TIME ZONE 'UTC', $4)) c
        GROUP BY b.bucket ORDER BY b.bucket`
    : `WITH ${buckets},
       counts AS (
         SELECT date_trunc($5, created_at AT TIME ZONE 'UTC') AS bucket, name, count(*)::int AS n
           FROM events
          WHERE project_id = $1 AND name = ANY($2::text[]) AND created_at >= $3 AND created_at < $4
          GROUP BY 1, 2)
       SELECT b.bucket AT TIME ZONE 'UTC' AS bucket,
              coalesce(jsonb_object_agg(c.name, c.n) FILTER (WHERE c.name IS NOT NULL), '{}') AS counts
         FROM buckets b LEFT JOIN counts c ON c.bucket = b.bucket
        GROUP BY b.bucket ORDER BY b.bucket`;
  return sql.query(text, [projectId, names, from, to, granularity]);
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

/** The campaigns that sent mail, best first by `metric`, with their figures from the email rows. */
export async function topCampaigns(
  sql: Sql,
  { projectId, metric, limit }: { projectId: string; metric: CampaignMetric; limit: number },
): Promise<CampaignFiguresRow[]> {
  return sql.query<CampaignFiguresRow>(
    `SELECT c.id, c.name, c.status, c.started_at, f.*
       FROM campaigns c
       CROSS JOIN LATERAL (SELECT ${CAMPAIGN_EMAIL_FIGURES} FROM emails WHERE campaign_id = c.id) f
      WHERE c.project_id = $1 AND f.sent > 0
      ORDER BY ${METRIC_ORDER[metric]}, c.started_at DESC, c.id LIMIT $2`,
    [projectId, limit],
  );
}

/** Every campaign that began sending (newest first), with its figures from the email rows. */
export async function campaignBreakdown(
  sql: Sql,
  { projectId, limit }: { projectId: string; limit: number },
): Promise<CampaignFiguresRow[]> {
  return sql.query<CampaignFiguresRow>(
    `SELECT c.id, c.name, c.status, c.started_at, f.*
       FROM campaigns c
       CROSS JOIN LATERAL (SELECT ${CAMPAIGN_EMAIL_FIGURES} FROM emails WHERE campaign_id = c.id) f
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
