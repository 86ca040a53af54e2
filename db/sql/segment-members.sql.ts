import type { SqlFragment } from '../../domain/segments/filter/compile-sql.pure.js';
import { contactColumns, type ContactRow } from './contacts.sql.js';
import type { Sql } from './sql.js';

const CONTACT_COLUMNS = contactColumns('c');

/** How many of the project's contacts match `where` (a compiled filter over `contacts c`). */
export async function countMatchingContacts(
  sql: Sql,
  { projectId, where }: { projectId: string; where: SqlFragment },
): Promise<number> {
  const n = where.params.length;
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM contacts c WHERE c.project_id = $${n + 1} AND ${where.text}`,
    [...where.params, projectId],
  );
  return row?.n ?? 0;
}

/**
 * A page of the project's contacts matching `where`, newest first. The planner cannot estimate
 * how many contacts a filter's data and event conditions match (no statistics on arbitrary data
 * paths), guesses a handful, and so would sort every match to return the first few; with sorts
 * off it walks the contacts by id from the newest (an index, in insertion order since ids are
 * UUIDv7) and stops at the page's last match. A filter matching nothing walks every contact of
 * the project, about what the scan and sort cost (bench/README.md, Segment counts).
 */
export async function pageOfMatchingContacts(
  sql: Sql,
  {
    projectId,
    where,
    limit,
    offset,
  }: { projectId: string; where: SqlFragment; limit: number; offset: number },
): Promise<ContactRow[]> {
  const n = where.params.length;
  return sql.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_sort = off');
    const rows = await tx.query<ContactRow>(
      `SELECT ${CONTACT_COLUMNS} FROM contacts c
        WHERE c.project_id = $${n + 1} AND ${where.text}
        ORDER BY c.id DESC LIMIT $${n + 2} OFFSET $${n + 3}`,
      [...where.params, projectId, limit, offset],
    );
    await tx.query('RESET enable_sort');
    return rows;
  });
}

export async function countMembers(
  sql: Sql,
  { segmentId }: { segmentId: string },
): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM segment_members WHERE segment_id = $1',
    [segmentId],
  );
  return row?.n ?? 0;
}

/** A page of a segment's stored members, newest contacts first. */
export async function pageOfMembers(
  sql: Sql,
  { segmentId, limit, offset }: { segmentId: string; limit: number; offset: number },
): Promise<ContactRow[]> {
  return sql.query<ContactRow>(
    `SELECT ${CONTACT_COLUMNS} FROM segment_members m JOIN contacts c ON c.id = m.contact_id
      WHERE m.segment_id = $1 ORDER BY c.id DESC LIMIT $2 OFFSET $3`,
    [segmentId, limit, offset],
  );
}

/**
 * Adds the project's contacts with these emails to a segment; answers how many were added (not
 * members before) and which emails are contacts.
 */
export async function addMembersByEmail(
  sql: Sql,
  { projectId, segmentId, emails }: { projectId: string; segmentId: string; emails: string[] },
): Promise<{ added: number; found: string[] }> {
  const [row] = await sql.query<{ added: number; found: string[] }>(
    `WITH found AS (
       SELECT id, email FROM contacts WHERE project_id = $1 AND email = ANY($3::text[])),
     added AS (
       INSERT INTO segment_members (segment_id, contact_id, created_at)
       SELECT $2, id, now() FROM found
       ON CONFLICT (segment_id, contact_id) DO NOTHING RETURNING 1)
     SELECT (SELECT count(*)::int FROM added) AS added,
            coalesce((SELECT array_agg(email) FROM found), '{}') AS found`,
    [projectId, segmentId, emails],
  );
  return { added: row?.added ?? 0, found: row?.found ?? [] };
}

/** Removes the members with these emails; answers how many there were. */
export async function removeMembersByEmail(
  sql: Sql,
  { projectId, segmentId, emails }: { projectId: string; segmentId: string; emails: string[] },
): Promise<number> {
  const [row] = await sql.query<{ removed: number }>(
    `WITH removed AS (
       DELETE FROM segment_members m USING contacts c
        WHERE m.segment_id = $2 AND c.id = m.contact_id AND c.project_id = $1
          AND c.email = ANY($3::text[])
        RETURNING 1)
     SELECT count(*)::int AS removed FROM removed`,
    [projectId, segmentId, emails],
  );
  return row?.removed ?? 0;
}

/** Forgets a segment's stored membership (tracking turned off). */
export async function deleteMembers(sql: Sql, { segmentId }: { segmentId: string }): Promise<void> {
  await sql.query('DELETE FROM segment_members WHERE segment_id = $1', [segmentId]);
}
