import type { Filter } from '../../domain/segments/filter/ast.pure.js';
import type { SqlFragment } from '../../domain/segments/filter/compile-sql.pure.js';
import type { FilterReferences } from '../../domain/segments/filter/references.pure.js';
import type { SegmentType } from '../../domain/segments/segment-type.pure.js';
import type { ContactRow } from './contacts.sql.js';
import type { Sql } from './sql.js';

export interface SegmentRow {
  id: string;
  project_id: string;
  name: string;
  slug: string;
  description: string | null;
  type: SegmentType;
  filter: Filter | null;
  track_membership: boolean;
  member_count: number;
  member_count_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const SEGMENT_COLUMNS = `id, project_id, name, slug, description, type, filter, track_membership,
  member_count, member_count_at, created_at, updated_at`;

const CONTACT_COLUMNS = 'c.id, c.email, c.subscribed, c.data, c.created_at, c.updated_at';

/** Throws a unique violation when the project has a segment of that slug. */
export async function insertSegment(
  sql: Sql,
  segment: {
    id: string;
    projectId: string;
    name: string;
    slug: string;
    description: string | null;
    type: SegmentType;
    filter: Filter | null;
    trackMembership: boolean;
    references: FilterReferences;
  },
): Promise<SegmentRow> {
  const [row] = await sql.query<SegmentRow>(
    `INSERT INTO segments (id, project_id, name, slug, description, type, filter, track_membership,
                           referenced_fields, referenced_events, referenced_segments, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now(), now())
     RETURNING ${SEGMENT_COLUMNS}`,
    [
      segment.id,
      segment.projectId,
      segment.name,
      segment.slug,
      segment.description,
      segment.type,
      segment.filter ? JSON.stringify(segment.filter) : null,
      segment.trackMembership,
      segment.references.fields,
      segment.references.events,
      segment.references.segments,
    ],
  );
  return row as SegmentRow;
}

export async function findSegment(
  sql: Sql,
  { projectId, segmentId }: { projectId: string; segmentId: string },
): Promise<SegmentRow | undefined> {
  const [row] = await sql.query<SegmentRow>(
    `SELECT ${SEGMENT_COLUMNS} FROM segments WHERE id = $1 AND project_id = $2`,
    [segmentId, projectId],
  );
  return row;
}

export async function listSegmentRows(
  sql: Sql,
  { projectId }: { projectId: string },
): Promise<SegmentRow[]> {
  return sql.query<SegmentRow>(
    `SELECT ${SEGMENT_COLUMNS} FROM segments WHERE project_id = $1 ORDER BY created_at, id`,
    [projectId],
  );
}

/** Changes what is given (undefined keeps a column); throws a unique violation on a taken slug. */
export async function updateSegmentRow(
  sql: Sql,
  {
    projectId,
    segmentId,
    name,
    slug,
    description,
    filter,
    references,
    trackMembership,
  }: {
    projectId: string;
    segmentId: string;
    name?: string;
    slug?: string;
    description?: string | null;
    filter?: Filter;
    references?: FilterReferences;
    trackMembership?: boolean;
  },
): Promise<SegmentRow | undefined> {
  const [row] = await sql.query<SegmentRow>(
    `UPDATE segments SET
       name = coalesce($3, name),
       slug = coalesce($4, slug),
       description = CASE WHEN $5 THEN $6 ELSE description END,
       filter = coalesce($7, filter),
       referenced_fields = coalesce($8, referenced_fields),
       referenced_events = coalesce($9, referenced_events),
       referenced_segments = coalesce($10, referenced_segments),
       track_membership = coalesce($11, track_membership),
       updated_at = now()
     WHERE id = $1 AND project_id = $2
     RETURNING ${SEGMENT_COLUMNS}`,
    [
      segmentId,
      projectId,
      name ?? null,
      slug ?? null,
      description !== undefined,
      description ?? null,
      filter ? JSON.stringify(filter) : null,
      references?.fields ?? null,
      references?.events ?? null,
      references?.segments ?? null,
      trackMembership ?? null,
    ],
  );
  return row;
}

export async function deleteSegmentRow(
  sql: Sql,
  { projectId, segmentId }: { projectId: string; segmentId: string },
): Promise<boolean> {
  const rows = await sql.query(
    'DELETE FROM segments WHERE id = $1 AND project_id = $2 RETURNING id',
    [segmentId, projectId],
  );
  return rows.length > 0;
}

export interface SegmentDefinitionRow {
  id: string;
  type: SegmentType;
  filter: Filter | null;
  referenced_segments: string[];
}

/**
 * The project's segments among `ids`, and every segment their filters refer to, however deep
 * (what compiling or evaluating a filter that names them needs).
 */
export async function findSegmentDefinitions(
  sql: Sql,
  { projectId, ids }: { projectId: string; ids: string[] },
): Promise<SegmentDefinitionRow[]> {
  if (ids.length === 0) return [];
  return sql.query<SegmentDefinitionRow>(
    `WITH RECURSIVE wanted(id) AS (
       SELECT unnest($2::uuid[])
       UNION
       SELECT unnest(s.referenced_segments) FROM segments s JOIN wanted w ON s.id = w.id
        WHERE s.project_id = $1)
     SELECT s.id, s.type, s.filter, s.referenced_segments
       FROM segments s JOIN wanted w ON s.id = w.id WHERE s.project_id = $1`,
    [projectId, ids],
  );
}

/** Segments of the project whose filters name `segmentId`, a data key or an event. */
export async function segmentsReferencing(
  sql: Sql,
  {
    projectId,
    segmentId,
    field,
    event,
  }: { projectId: string; segmentId?: string; field?: string; event?: string },
): Promise<{ id: string; name: string }[]> {
  return sql.query<{ id: string; name: string }>(
    `SELECT id, name FROM segments
      WHERE project_id = $1
        AND ($2::uuid IS NULL OR $2::uuid = ANY(referenced_segments))
        AND ($3::text IS NULL OR $3::text = ANY(referenced_fields))
        AND ($4::text IS NULL OR $4::text = ANY(referenced_events))
      ORDER BY created_at, id`,
    [projectId, segmentId ?? null, field ?? null, event ?? null],
  );
}

export async function setMemberCount(
  sql: Sql,
  { segmentId, memberCount }: { segmentId: string; memberCount: number },
): Promise<void> {
  await sql.query('UPDATE segments SET member_count = $2, member_count_at = now() WHERE id = $1', [
    segmentId,
    memberCount,
  ]);
}

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

/** A page of the project's contacts matching `where`, newest first. */
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
  return sql.query<ContactRow>(
    `SELECT ${CONTACT_COLUMNS} FROM contacts c
      WHERE c.project_id = $${n + 1} AND ${where.text}
      ORDER BY c.id DESC LIMIT $${n + 2} OFFSET $${n + 3}`,
    [...where.params, projectId, limit, offset],
  );
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

/** Where a compute starts, and stands once its last batch is done. */
export const FIRST_ID = '00000000-0000-0000-0000-000000000000';
export const LAST_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

export interface SegmentComputeRow {
  run_id: string;
  segment_id: string;
  after_contact_id: string;
  done: boolean;
  added: number;
  removed: number;
}

/**
 * The progress of compute `runId`, begun now when it is new. Finished computes of the same
 * segment are forgotten: their results were answered.
 */
export async function beginCompute(
  sql: Sql,
  { runId, segmentId }: { runId: string; segmentId: string },
): Promise<SegmentComputeRow> {
  return sql.transaction(async (tx) => {
    await tx.query('DELETE FROM segment_computes WHERE segment_id = $1 AND done AND run_id <> $2', [
      segmentId,
      runId,
    ]);
    await tx.query(
      `INSERT INTO segment_computes (run_id, segment_id, created_at) VALUES ($1, $2, now())
       ON CONFLICT (run_id) DO NOTHING`,
      [runId, segmentId],
    );
    const [row] = await tx.query<SegmentComputeRow>(
      'SELECT run_id, segment_id, after_contact_id, done, added, removed FROM segment_computes WHERE run_id = $1',
      [runId],
    );
    return row as SegmentComputeRow;
  });
}

/** The id of the `size`-th contact of the project after `afterId`: where a batch ends. */
export async function batchEnd(
  sql: Sql,
  { projectId, afterId, size }: { projectId: string; afterId: string; size: number },
): Promise<string | undefined> {
  const [row] = await sql.query<{ id: string }>(
    `SELECT id FROM contacts WHERE project_id = $1 AND id > $2 ORDER BY id OFFSET $3 LIMIT 1`,
    [projectId, afterId, size - 1],
  );
  return row?.id;
}

/**
 * One batch of a compute: for the contacts with ids in (afterId, upto] (to the end when `upto`
 * is null), the members that `where` no longer matches leave and those it matches join, each
 * change recording its entry or exit event; the compute's progress moves to `upto` (LAST_ID at
 * the end) with the counts. Answers false, changing nothing, when the progress no longer stands
 * at `afterId` (another attempt moved it). Runs as one transaction.
 */
export async function computeBatch(
  sql: Sql,
  {
    runId,
    projectId,
    segmentId,
    where,
    afterId,
    upto,
    entryEvent,
    exitEvent,
    eventData,
  }: {
    runId: string;
    projectId: string;
    segmentId: string;
    where: SqlFragment;
    afterId: string;
    upto: string | null;
    entryEvent: string;
    exitEvent: string;
    eventData: Record<string, unknown>;
  },
): Promise<boolean> {
  const n = where.params.length;
  const p = (i: number): string => `$${n + i}`;
  return sql.transaction(async (tx) => {
    // The compute's row, locked: a second attempt waits here, then finds the progress moved.
    const [progress] = await tx.query<{ after_contact_id: string; done: boolean }>(
      'SELECT after_contact_id, done FROM segment_computes WHERE run_id = $1 FOR UPDATE',
      [runId],
    );
    if (!progress || progress.done || progress.after_contact_id !== afterId) return false;
    await tx.query(
      `WITH target AS (
         SELECT c.id FROM contacts c
          WHERE c.project_id = ${p(2)} AND c.id > ${p(4)}::uuid
            AND (${p(5)}::uuid IS NULL OR c.id <= ${p(5)}::uuid) AND ${where.text}),
       joined AS (
         INSERT INTO segment_members (segment_id, contact_id, created_at)
         SELECT ${p(3)}, id, now() FROM target
         ON CONFLICT (segment_id, contact_id) DO NOTHING
         RETURNING contact_id),
       left_ AS (
         DELETE FROM segment_members m
          WHERE m.segment_id = ${p(3)} AND m.contact_id > ${p(4)}::uuid
            AND (${p(5)}::uuid IS NULL OR m.contact_id <= ${p(5)}::uuid)
            AND NOT EXISTS (SELECT 1 FROM target t WHERE t.id = m.contact_id)
          RETURNING m.contact_id),
       recorded AS (
         INSERT INTO events (id, project_id, contact_id, name, data, created_at)
         SELECT uuid_generate_v7(), ${p(2)}, contact_id, ${p(6)}, ${p(8)}::jsonb, now() FROM joined
         UNION ALL
         SELECT uuid_generate_v7(), ${p(2)}, contact_id, ${p(7)}, ${p(8)}::jsonb, now() FROM left_)
       UPDATE segment_computes
          SET after_contact_id = coalesce(${p(5)}::uuid, '${LAST_ID}'),
              added = added + (SELECT count(*) FROM joined),
              removed = removed + (SELECT count(*) FROM left_)
        WHERE run_id = ${p(1)}`,
      [
        ...where.params,
        runId,
        projectId,
        segmentId,
        afterId,
        upto,
        entryEvent,
        exitEvent,
        JSON.stringify(eventData),
      ],
    );
    return true;
  });
}

/** Marks a compute done and answers its counts and the segment's members now. */
export async function finishCompute(
  sql: Sql,
  { runId, segmentId }: { runId: string; segmentId: string },
): Promise<{ added: number; removed: number; total: number }> {
  const [row] = await sql.query<{ added: number; removed: number; total: number }>(
    `WITH done AS (
       UPDATE segment_computes SET done = true WHERE run_id = $1 RETURNING added, removed),
     total AS (SELECT count(*)::int AS n FROM segment_members WHERE segment_id = $2),
     counted AS (
       UPDATE segments SET member_count = (SELECT n FROM total), member_count_at = now()
        WHERE id = $2)
     SELECT d.added, d.removed, t.n AS total FROM done d, total t`,
    [runId, segmentId],
  );
  return row ?? { added: 0, removed: 0, total: 0 };
}

/** Every tracked dynamic segment, on every project (the recompute schedule's list). */
export async function listTrackedSegments(sql: Sql): Promise<{ id: string; project_id: string }[]> {
  return sql.query<{ id: string; project_id: string }>(
    `SELECT id, project_id FROM segments WHERE track_membership AND type = 'DYNAMIC' ORDER BY id`,
  );
}
