import { countDeleted } from './rows.js';
import type { Sql } from './sql.js';

/**
 * The project's ($1) distinct event names as a recursive CTE `names(name)` (the last row is
 * NULL): a skip scan of (project_id, name, created_at), one index probe per name however many
 * events each has.
 */
export const PROJECT_EVENT_NAMES_CTE = `names AS (
       (SELECT name FROM events WHERE project_id = $1 ORDER BY name LIMIT 1)
       UNION ALL
       SELECT (SELECT e.name FROM events e WHERE e.project_id = $1 AND e.name > n.name
                ORDER BY e.name LIMIT 1)
         FROM names n WHERE n.name IS NOT NULL)`;

export interface EventRow {
  id: string;
  name: string;
  /** Null for an event of the whole project (the service's `billing.limit_warning`). */
  contact_id: string | null;
  email: string | null;
  data: Record<string, unknown>;
  created_at: string | Date;
}

export interface EventFilter {
  projectId: string;
  name?: string;
  contactId?: string;
}

/** Newest first after the keyset `afterId` (ids are time-ordered); `limit + 1` rows. */
export async function listEventRows(
  sql: Sql,
  { projectId, name, contactId, afterId, limit }: EventFilter & { afterId?: string; limit: number },
): Promise<EventRow[]> {
  return sql.query<EventRow>(
    `SELECT e.id, e.name, e.contact_id, c.email, e.data, e.created_at
       FROM events e LEFT JOIN contacts c ON c.id = e.contact_id
      WHERE e.project_id = $1
        AND ($2::text IS NULL OR e.name = $2)
        AND ($3::uuid IS NULL OR e.contact_id = $3::uuid)
        AND ($4::uuid IS NULL OR e.id < $4::uuid)
      ORDER BY e.id DESC LIMIT $5`,
    [projectId, name || null, contactId || null, afterId ?? null, limit + 1],
  );
}

export async function countEvents(
  sql: Sql,
  { projectId, name, contactId }: EventFilter,
): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events
      WHERE project_id = $1 AND ($2::text IS NULL OR name = $2)
        AND ($3::uuid IS NULL OR contact_id = $3::uuid)`,
    [projectId, name || null, contactId || null],
  );
  return row?.n ?? 0;
}

export interface EventTotals {
  total: number;
  last24Hours: number;
  last7Days: number;
  last30Days: number;
  uniqueNames: number;
  uniqueContacts30Days: number;
}

export async function eventTotals(
  sql: Sql,
  { projectId }: { projectId: string },
): Promise<EventTotals> {
  const [row] = await sql.query<EventTotals>(
    `SELECT count(*)::int AS "total",
            count(*) FILTER (WHERE created_at > now() - interval '24 hours')::int AS "last24Hours",
            count(*) FILTER (WHERE created_at > now() - interval '7 days')::int AS "last7Days",
            count(*) FILTER (WHERE created_at > now() - interval '30 days')::int AS "last30Days",
            count(DISTINCT name)::int AS "uniqueNames",
            count(DISTINCT contact_id) FILTER (WHERE created_at > now() - interval '30 days')::int AS "uniqueContacts30Days"
       FROM events WHERE project_id = $1`,
    [projectId],
  );
  return row as EventTotals;
}

export interface EventNameCount {
  name: string;
  count: number;
  /** When the newest event of that name was recorded. */
  last: Date;
}

/** Event names with their counts, most frequent first, at most `limit` of them. */
export async function topEventNames(
  sql: Sql,
  { projectId, limit }: { projectId: string; limit: number },
): Promise<{ name: string; count: number }[]> {
  return sql.query<{ name: string; count: number }>(
    `SELECT name, count(*)::int AS count FROM events WHERE project_id = $1
      GROUP BY name ORDER BY count DESC, name LIMIT $2`,
    [projectId, limit],
  );
}

/** Every distinct event name of the project, in name order. */
export async function eventNameCounts(
  sql: Sql,
  { projectId }: { projectId: string },
): Promise<EventNameCount[]> {
  return sql.query<EventNameCount>(
    `SELECT name, count(*)::int AS count, max(created_at) AS last FROM events
      WHERE project_id = $1 GROUP BY name ORDER BY name`,
    [projectId],
  );
}

export async function deleteEventsNamed(
  sql: Sql,
  { projectId, name }: { projectId: string; name: string },
): Promise<number> {
  return countDeleted(sql, 'DELETE FROM events WHERE project_id = $1 AND name = $2', [
    projectId,
    name,
  ]);
}

/** Records one event the service emits for a contact (email.*, for instance). */
export async function insertEvent(
  sql: Sql,
  {
    projectId,
    contactId,
    name,
    data,
  }: { projectId: string; contactId: string; name: string; data: Record<string, unknown> },
): Promise<void> {
  await sql.query(
    `INSERT INTO events (id, project_id, contact_id, name, data, created_at)
     VALUES (uuid_generate_v7(now()), $1, $2, $3, $4, now())`,
    [projectId, contactId, name, JSON.stringify(data)],
  );
}

/**
 * Every event name of the project with the top-level data keys its newest `sample` events have,
 * in name order. Names come from a skip scan of the (project, name, time) index, so a project
 * with millions of events costs one index probe per name.
 */
export async function eventNamesWithDataKeys(
  sql: Sql,
  { projectId, sample }: { projectId: string; sample: number },
): Promise<{ name: string; keys: string[] }[]> {
  return sql.query<{ name: string; keys: string[] }>(
    `WITH RECURSIVE ${PROJECT_EVENT_NAMES_CTE}
     SELECT n.name,
            coalesce(array_agg(DISTINCT k.key ORDER BY k.key) FILTER (WHERE k.key IS NOT NULL),
                     '{}') AS keys
       FROM names n
       LEFT JOIN LATERAL (
         SELECT e.data FROM events e WHERE e.project_id = $1 AND e.name = n.name
          ORDER BY e.created_at DESC LIMIT $2) d ON true
       LEFT JOIN LATERAL (
         SELECT jsonb_object_keys(d.data) AS key WHERE jsonb_typeof(d.data) = 'object') k ON true
      WHERE n.name IS NOT NULL
      GROUP BY n.name ORDER BY n.name`,
    [projectId, sample],
  );
}
