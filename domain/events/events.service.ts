import type { Sql } from '../../db/sql/sql.js';
import { notFound } from '../shared/errors.js';
import { cursorPage, decodeCursor, type CursorPage } from '../shared/pagination.js';

export interface EventView {
  id: string;
  name: string;
  contactId: string;
  contactEmail: string;
  data: Record<string, unknown>;
  createdAt: string;
}

interface EventRow {
  id: string;
  name: string;
  contact_id: string;
  email: string;
  data: Record<string, unknown>;
  created_at: string | Date;
}

const toEventView = (row: EventRow): EventView => ({
  id: row.id,
  name: row.name,
  contactId: row.contact_id,
  contactEmail: row.email,
  data: row.data ?? {},
  createdAt: new Date(row.created_at).toISOString(),
});

/** Newest first, by keyset on the (time-ordered) id; optionally one event name or one contact. */
export async function listEvents({
  sql,
  projectId,
  limit,
  cursor,
  name,
  contactId,
}: {
  sql: Sql;
  projectId: string;
  limit: number;
  cursor?: string;
  name?: string;
  contactId?: string;
}): Promise<CursorPage<EventView>> {
  const params: unknown[] = [projectId];
  let where = 'e.project_id = $1';
  if (name) {
    params.push(name);
    where += ` AND e.name = $${params.length}`;
  }
  if (contactId) {
    params.push(contactId);
    where += ` AND e.contact_id = $${params.length}`;
  }
  const countParams = [...params];
  const countWhere = where;
  if (cursor) {
    params.push(decodeCursor(cursor).id);
    where += ` AND e.id < $${params.length}`;
  }
  params.push(limit + 1);
  const [rows, total] = await Promise.all([
    sql.query<EventRow>(
      `SELECT e.id, e.name, e.contact_id, c.email, e.data, e.created_at
         FROM events e JOIN contacts c ON c.id = e.contact_id
        WHERE ${where} ORDER BY e.id DESC LIMIT $${params.length}`,
      params,
    ),
    cursor
      ? Promise.resolve(undefined)
      : sql
          .query<{ n: number }>(
            `SELECT count(*)::int AS n FROM events e WHERE ${countWhere}`,
            countParams,
          )
          .then((r) => r[0]?.n ?? 0),
  ]);
  return cursorPage({
    rows: rows.map(toEventView),
    limit,
    total,
    positionOf: (e) => ({ sort: e.id, id: e.id }),
  });
}

export async function listContactEvents(input: {
  sql: Sql;
  projectId: string;
  contactId: string;
  limit: number;
  cursor?: string;
}): Promise<CursorPage<EventView>> {
  const exists = await input.sql.query('SELECT 1 FROM contacts WHERE id = $1 AND project_id = $2', [
    input.contactId,
    input.projectId,
  ]);
  if (exists.length === 0) throw notFound('Contact');
  return listEvents(input);
}

export interface EventStats {
  total: number;
  last24Hours: number;
  last7Days: number;
  last30Days: number;
  uniqueNames: number;
  uniqueContacts30Days: number;
  topEvents: { name: string; count: number }[];
}

export async function eventStats({
  sql,
  projectId,
}: {
  sql: Sql;
  projectId: string;
}): Promise<EventStats> {
  const [[totals], top] = await Promise.all([
    sql.query<Omit<EventStats, 'topEvents'>>(
      `SELECT count(*)::int AS "total",
              count(*) FILTER (WHERE created_at > now() - interval '24 hours')::int AS "last24Hours",
              count(*) FILTER (WHERE created_at > now() - interval '7 days')::int AS "last7Days",
              count(*) FILTER (WHERE created_at > now() - interval '30 days')::int AS "last30Days",
              count(DISTINCT name)::int AS "uniqueNames",
              count(DISTINCT contact_id) FILTER (WHERE created_at > now() - interval '30 days')::int AS "uniqueContacts30Days"
         FROM events WHERE project_id = $1`,
      [projectId],
    ),
    sql.query<{ name: string; count: number }>(
      `SELECT name, count(*)::int AS count FROM events WHERE project_id = $1
        GROUP BY name ORDER BY count DESC, name LIMIT 10`,
      [projectId],
    ),
  ]);
  return { ...(totals as Omit<EventStats, 'topEvents'>), topEvents: top };
}

export async function listEventNames({
  sql,
  projectId,
}: {
  sql: Sql;
  projectId: string;
}): Promise<{ names: { name: string; count: number; lastSeenAt: string }[] }> {
  const rows = await sql.query<{ name: string; count: number; last: Date }>(
    `SELECT name, count(*)::int AS count, max(created_at) AS last FROM events
      WHERE project_id = $1 GROUP BY name ORDER BY name`,
    [projectId],
  );
  return {
    names: rows.map((r) => ({
      name: r.name,
      count: r.count,
      lastSeenAt: new Date(r.last).toISOString(),
    })),
  };
}

/**
 * Where an event name is referenced (segment filters, workflow triggers and conditions). Those
 * resources arrive with their own issues; until then the lists are truthfully empty.
 */
export async function eventUsage({ name }: { name: string }): Promise<{
  event: string;
  segments: unknown[];
  workflows: unknown[];
  campaigns: unknown[];
}> {
  return { event: name, segments: [], workflows: [], campaigns: [] };
}

export async function deleteEventsByName({
  sql,
  projectId,
  name,
}: {
  sql: Sql;
  projectId: string;
  name: string;
}): Promise<{ event: string; deleted: number }> {
  const [row] = await sql.query<{ deleted: number }>(
    `WITH gone AS (DELETE FROM events WHERE project_id = $1 AND name = $2 RETURNING 1)
     SELECT count(*)::int AS deleted FROM gone`,
    [projectId, name],
  );
  return { event: name, deleted: row?.deleted ?? 0 };
}
