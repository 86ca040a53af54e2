import { countMatchingContacts, countMembers } from '../../db/sql/segment-members.sql.js';
import { findSegment, findSegmentDefinitions, type SegmentRow } from '../../db/sql/segments.sql.js';
import { type Sql } from '../../db/sql/sql.js';
import { conflict, requireFound, validationError } from '../shared/errors.js';
import type { Filter } from './filter/ast.pure.js';
import { compileFilter, type SqlFragment } from './filter/compile-sql.pure.js';
import type { SegmentDefinition } from './filter/evaluate.pure.js';
import { cycleThrough, filterReferences } from './filter/references.pure.js';
import { type SegmentType } from './segment-type.pure.js';

// What every segment use case needs: its filter compiled for the project (segments it names
// inlined), the segments it names checked, the segment found, its member count.

/** The segments a filter names, and those theirs name, as the filter back ends read them. */
export async function segmentDefinitions(
  sql: Sql,
  { projectId, filter }: { projectId: string; filter: Filter },
): Promise<Map<string, SegmentDefinition & { references: string[] }>> {
  const rows = await findSegmentDefinitions(sql, {
    projectId,
    ids: filterReferences(filter).segments,
  });
  return new Map(
    rows.map((row) => [
      row.id,
      {
        ...(row.type === 'STATIC' || !row.filter
          ? { type: 'STATIC' as const }
          : { type: 'DYNAMIC' as const, filter: row.filter }),
        references: row.referenced_segments,
      },
    ]),
  );
}

/** A filter as SQL over the project's contacts, with the segments it names resolved. */
export async function compileForProject(
  sql: Sql,
  { projectId, filter, now = new Date() }: { projectId: string; filter: Filter; now?: Date },
): Promise<SqlFragment> {
  const segments = await segmentDefinitions(sql, { projectId, filter });
  return compileFilter(filter, { now, segments });
}

/**
 * Refuses a filter that names a segment the project lacks, or that leads back to `segmentId`
 * through memberOf (A memberOf B memberOf A).
 */
export async function checkReferences(
  sql: Sql,
  {
    projectId,
    segmentId,
    filter,
    field,
  }: { projectId: string; segmentId?: string; filter: Filter; field: string },
): Promise<void> {
  const named = filterReferences(filter).segments;
  if (named.length === 0) return;
  const definitions = await segmentDefinitions(sql, { projectId, filter });
  const missing = named.find((id) => !definitions.has(id));
  if (missing) {
    throw validationError({
      field,
      message: `segment.${missing}: this project has no such segment`,
      code: 'unknown_segment',
    });
  }
  if (segmentId === undefined) return;
  const through = cycleThrough(segmentId, named, (id) => definitions.get(id)?.references ?? []);
  if (through) {
    throw validationError({
      field,
      message: `segment.${through} leads back to this segment (a segment cannot contain itself)`,
      code: 'segment_cycle',
    });
  }
}

export async function countOf(sql: Sql, row: SegmentRow): Promise<number> {
  if (row.type === 'STATIC' || !row.filter) return countMembers(sql, { segmentId: row.id });
  const where = await compileForProject(sql, { projectId: row.project_id, filter: row.filter });
  return countMatchingContacts(sql, { projectId: row.project_id, where });
}

/** A segment of a project, as the use cases that read or change it name it. */
export interface SegmentRef {
  sql: Sql;
  projectId: string;
  segmentId: string;
}

export async function requireSegment(ref: SegmentRef): Promise<SegmentRow> {
  const row = await findSegment(ref.sql, { projectId: ref.projectId, segmentId: ref.segmentId });
  return requireFound(row, 'Segment');
}

export const slugTaken = (slug: string) =>
  conflict(
    `Another segment of this project has the slug "${slug}"`,
    'Segment names must differ in more than case and punctuation: the slug names its events.',
  );

export interface SegmentInput {
  name: string;
  description?: string | null;
  type: SegmentType;
  filter?: Filter;
  /** The body key the filter came in (`filters` or `condition`), for error paths. */
  filterField: string;
  trackMembership: boolean;
}

export async function requireStatic(ref: SegmentRef): Promise<SegmentRow> {
  const segment = await requireSegment(ref);
  if (segment.type !== 'STATIC') {
    throw conflict(
      'Only a STATIC segment has members added or removed by hand',
      'A DYNAMIC segment has the contacts its filter matches.',
    );
  }
  return segment;
}
