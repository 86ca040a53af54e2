import type { EmailEventName } from '../../domain/insights/activity-type.pure.js';
import { timeUnitSecondsSql } from '../../domain/shared/time-unit.pure.js';
import { wholeHours, windowCountsCte } from './email-event-hours.sql.js';
import type { Sql } from './sql.js';

export interface ActivityRow {
  id: string;
  name: string;
  created_at: Date;
  contact_id: string;
  contact_email: string | null;
  data: Record<string, unknown>;
  campaign_id: string | null;
  campaign_name: string | null;
  workflow_id: string | null;
  workflow_name: string | null;
}

export interface ActivityFilter {
  projectId: string;
  /** Event names of the activity types asked for. */
  names: string[];
  from?: Date;
  to?: Date;
  contactId?: string;
  campaignId?: string;
}

/**
 * The WHERE clause of a feed query over `events e`, with only the filters given; with `byName`,
 * the name is `n.name` (one of the names, read by the caller one at a time) instead of any of them.
 */
function feedWhere(filter: ActivityFilter, params: unknown[], byName = false): string {
  const add = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const clauses = [
    `e.project_id = ${add(filter.projectId)}`,
    byName ? 'e.name = n.name' : `e.name = ANY(${add(filter.names)}::text[])`,
  ];
  if (filter.from) clauses.push(`e.created_at >= ${add(filter.from)}`);
  if (filter.to) clauses.push(`e.created_at < ${add(filter.to)}`);
  if (filter.contactId) clauses.push(`e.contact_id = ${add(filter.contactId)}::uuid`);
  // `data ? 'campaignId'` lets the planner use events_campaign_index (its predicate).
  if (filter.campaignId) {
    clauses.push(`e.data ? 'campaignId' AND e.data ->> 'campaignId' = ${add(filter.campaignId)}`);
  }
  return clauses.join(' AND ');
}

/**
 * A page of the feed, newest first: events ids are UUIDv7 made for the event's own time
 * (`uuid_generate_v7(now())`), so the keyset is the id alone and times never rise down a page
 * (an inbound message's id is minted on receipt, a moment before its row). Each item comes with
 * its contact's address and its campaign's or workflow's name.
 */
export async function listActivityRows(
  sql: Sql,
  { beforeId, limit, ...filter }: ActivityFilter & { beforeId?: string; limit: number },
): Promise<ActivityRow[]> {
  const params: unknown[] = [];
  let where = feedWhere(filter, params);
  if (beforeId) {
    params.push(beforeId);
    where += ` AND e.id < $${params.length}::uuid`;
  }
  params.push(limit);
  return sql.query<ActivityRow>(
    `SELECT e.id, e.name, e.created_at, e.contact_id, c.email AS contact_email, e.data,
            cp.id AS campaign_id, cp.name AS campaign_name, w.id AS workflow_id, w.name AS workflow_name
       FROM (SELECT * FROM events e WHERE ${where} ORDER BY e.id DESC LIMIT $${params.length}) e
       LEFT JOIN contacts c ON c.id = e.contact_id
       LEFT JOIN campaigns cp ON cp.project_id = e.project_id AND cp.id::text = e.data ->> 'campaignId'
       LEFT JOIN workflows w ON w.project_id = e.project_id AND w.id::text = e.data ->> 'workflowId'
      ORDER BY e.id DESC`,
    params,
  );
}

/**
 * How many events the feed's filter matches. A time window without a campaign is counted name by
 * name (the range of each name in events_project_id_name_created_at_index): one scan over several
 * names can walk far past the window on PostgreSQL 17 (see `NAMES` in email-event-hours.sql.ts;
 * 76 ms instead of 14 for a day's window ending before the newest events on bench:insights' data).
 * A campaign's events come from its own index, whatever the names.
 */
export async function countActivity(sql: Sql, filter: ActivityFilter): Promise<number> {
  if ((filter.from || filter.to) && !filter.campaignId) {
    const params: unknown[] = [filter.names];
    const where = feedWhere(filter, params, true);
    const [row] = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT DISTINCT unnest($1::text[]) AS name) n,
              LATERAL (SELECT 1 FROM events e WHERE ${where}) e`,
      params,
    );
    return row?.n ?? 0;
  }
  const params: unknown[] = [];
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events e WHERE ${feedWhere(filter, params)}`,
    params,
  );
  return row?.n ?? 0;
}

/**
 * How many events of `names` (each `email.*`) the project has, from the counts kept per project
 * and name by triggers on events: a sum of at most 16 rows a name, not a count of the events.
 */
export async function countEmailEvents(
  sql: Sql,
  { projectId, names }: { projectId: string; names: EmailEventName[] },
): Promise<number> {
  const [row] = await sql.query<{ n: string }>(
    `SELECT coalesce(sum(count), 0)::text AS n FROM project_email_event_counts
      WHERE project_id = $1 AND name = ANY($2::text[])`,
    [projectId, names],
  );
  return Number(row?.n ?? 0);
}

/** Counts per event name of `names` (each `email.*`) in [from, to). */
export async function countByName(
  sql: Sql,
  {
    projectId,
    names,
    from,
    to,
  }: { projectId: string; names: EmailEventName[]; from: Date; to: Date },
): Promise<Record<string, number>> {
  const { lo, hi } = wholeHours({ from, to });
  const rows = await sql.query<{ name: string; n: number }>(
    `WITH ${windowCountsCte({ lo: '$5', hi: '$6', bucket: () => 'NULL::timestamp' })}
     SELECT name, n::int AS n FROM window_counts`,
    [projectId, names, from, to, lo, hi],
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.n]));
}

/** The names among `names` that the project has at least one event of. */
export async function namesPresent(
  sql: Sql,
  { projectId, names }: { projectId: string; names: string[] },
): Promise<string[]> {
  const rows = await sql.query<{ name: string }>(
    `SELECT n AS name FROM unnest($2::text[]) AS n
      WHERE EXISTS (SELECT 1 FROM events WHERE project_id = $1 AND name = n)`,
    [projectId, names],
  );
  return rows.map((r) => r.name);
}

export interface UpcomingCampaignRow {
  id: string;
  name: string;
  scheduled_at: Date;
}

/** The project's next `limit` scheduled campaigns, soonest first. */
export const listScheduledCampaigns = (
  sql: Sql,
  { projectId, limit }: { projectId: string; limit: number },
): Promise<UpcomingCampaignRow[]> =>
  sql.query<UpcomingCampaignRow>(
    `SELECT id, name, scheduled_at FROM campaigns
      WHERE project_id = $1 AND status = 'SCHEDULED'
      ORDER BY scheduled_at, id LIMIT $2`,
    [projectId, limit],
  );

export interface UpcomingExecutionRow {
  id: string;
  workflow_id: string;
  workflow_name: string;
  contact_id: string;
  contact_email: string;
  current_step_id: string | null;
  step_type: string | null;
  waiting_since: Date | null;
  wakes_at: Date | null;
}

/**
 * The project's WAITING executions, the soonest to wake first: a DELAY wakes when its time is
 * up, a WAIT_FOR_EVENT at its timeout (or with its event; without a timeout it has no time).
 * The step's config comes from the graph the execution runs.
 */
export async function listWaitingExecutions(
  sql: Sql,
  { projectId, limit }: { projectId: string; limit: number },
): Promise<UpcomingExecutionRow[]> {
  return sql.query<UpcomingExecutionRow>(
    `SELECT x.id, x.workflow_id, w.name AS workflow_name, x.contact_id, c.email AS contact_email,
            x.current_step_id, st.s ->> 'type' AS step_type, es.started_at AS waiting_since,
            CASE st.s ->> 'type'
              WHEN 'DELAY' THEN es.started_at + make_interval(secs =>
                (st.s -> 'config' ->> 'amount')::float8 *
                ${timeUnitSecondsSql("st.s -> 'config' ->> 'unit'")})
              WHEN 'WAIT_FOR_EVENT' THEN es.started_at + make_interval(secs =>
                (st.s -> 'config' ->> 'timeoutSeconds')::float8)
            END AS wakes_at
       FROM executions x
       JOIN workflows w ON w.id = x.workflow_id
       JOIN contacts c ON c.id = x.contact_id
       JOIN workflow_graphs g ON g.id = x.graph_id
       CROSS JOIN LATERAL (
         SELECT jsonb_path_query_first(g.graph, '$.steps[*] ? (@.id == $id)',
                                       jsonb_build_object('id', x.current_step_id::text)) AS s) st
       LEFT JOIN LATERAL (
         SELECT started_at FROM execution_steps
          WHERE execution_id = x.id AND step_id = x.current_step_id
          ORDER BY seq DESC LIMIT 1) es ON true
      WHERE x.project_id = $1 AND x.status = 'WAITING'
      ORDER BY wakes_at NULLS LAST, x.id LIMIT $2`,
    [projectId, limit],
  );
}
