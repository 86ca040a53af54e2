import type { Filter } from '../../domain/segments/filter/ast.pure.js';
import type { FilterReferences } from '../../domain/segments/filter/references.pure.js';
import type { SegmentType } from '../../domain/segments/segment-type.pure.js';
import { assignmentList, columnList, namedParams, placeholderList } from './named-params.js';
import { deleteOwnedRow, findOwnedRow } from './rows.js';
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

/** What create writes and PATCH changes, as its columns: both statements are built from it. */
const CONTENT = {
  name: null,
  slug: null,
  description: null,
  filter: null,
  track_membership: null,
  referenced_fields: null,
  referenced_events: null,
  referenced_segments: null,
} as const;

interface SegmentContent {
  name?: string;
  slug?: string;
  description?: string | null;
  filter?: Filter | null;
  trackMembership?: boolean;
  references?: FilterReferences;
}

const contentValues = (c: SegmentContent) => ({
  name: c.name ?? null,
  slug: c.slug ?? null,
  description: c.description ?? null,
  filter: c.filter ? JSON.stringify(c.filter) : null,
  track_membership: c.trackMembership ?? null,
  referenced_fields: c.references?.fields ?? null,
  referenced_events: c.references?.events ?? null,
  referenced_segments: c.references?.segments ?? null,
});

const INSERT = namedParams({ id: null, project_id: null, type: null, ...CONTENT });

/** Throws a unique violation when the project has a segment of that slug. */
export async function insertSegment(
  sql: Sql,
  segment: Required<SegmentContent> & { id: string; projectId: string; type: SegmentType },
): Promise<SegmentRow> {
  const [row] = await sql.query<SegmentRow>(
    `INSERT INTO segments (${columnList(INSERT)}, created_at, updated_at)
     VALUES (${placeholderList(INSERT)}, now(), now())
     RETURNING ${SEGMENT_COLUMNS}`,
    INSERT.values({
      id: segment.id,
      project_id: segment.projectId,
      type: segment.type,
      ...contentValues(segment),
    }),
  );
  return row as SegmentRow;
}

export async function findSegment(
  sql: Sql,
  { projectId, segmentId }: { projectId: string; segmentId: string },
): Promise<SegmentRow | undefined> {
  return findOwnedRow<SegmentRow>(
    sql,
    { table: 'segments', columns: SEGMENT_COLUMNS },
    { id: segmentId, ownerId: projectId },
  );
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

// A null keeps the column, except for the description, which may be set to null.
const UPDATE = namedParams({ id: null, project_id: null, description_given: null, ...CONTENT });
const UPDATE_SEGMENT_SQL = `UPDATE segments SET
       ${assignmentList(UPDATE, {
         only: Object.keys(CONTENT) as (keyof typeof CONTENT)[],
         value: (column, placeholder) =>
           column === 'description'
             ? `CASE WHEN ${UPDATE.$.description_given} THEN ${placeholder} ELSE description END`
             : `coalesce(${placeholder}, ${column})`,
       })},
       updated_at = now()
     WHERE id = ${UPDATE.$.id} AND project_id = ${UPDATE.$.project_id}
     RETURNING ${SEGMENT_COLUMNS}`;

/** Changes what is given (undefined keeps a column); throws a unique violation on a taken slug. */
export async function updateSegmentRow(
  sql: Sql,
  { projectId, segmentId, ...content }: SegmentContent & { projectId: string; segmentId: string },
): Promise<SegmentRow | undefined> {
  const [row] = await sql.query<SegmentRow>(
    UPDATE_SEGMENT_SQL,
    UPDATE.values({
      id: segmentId,
      project_id: projectId,
      description_given: content.description !== undefined,
      ...contentValues(content),
    }),
  );
  return row;
}

export async function deleteSegmentRow(
  sql: Sql,
  { projectId, segmentId }: { projectId: string; segmentId: string },
): Promise<boolean> {
  return deleteOwnedRow(sql, { table: 'segments' }, { id: segmentId, ownerId: projectId });
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
