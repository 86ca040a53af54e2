import type { Filter } from '../../domain/segments/filter/ast.pure.js';
import type { FilterReferences } from '../../domain/segments/filter/references.pure.js';
import type { SegmentType } from '../../domain/segments/segment-type.pure.js';
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
