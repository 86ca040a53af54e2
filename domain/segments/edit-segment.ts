import { isActiveCampaign } from '../campaigns/campaign-status.pure.js';
import { deleteMembers } from '../../db/sql/segment-members.sql.js';
import {
  deleteSegmentRow,
  insertSegment,
  setMemberCount,
  updateSegmentRow,
  type SegmentRow,
} from '../../db/sql/segments.sql.js';
import { isUniqueViolation, type Sql } from '../../db/sql/sql.js';
import { conflict, notFound, validationError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Filter } from './filter/ast.pure.js';
import { filterReferences } from './filter/references.pure.js';
import { segmentSlug } from './segment-type.pure.js';
import { toSegmentView, type SegmentView } from './segment-view.js';
import {
  checkReferences,
  countOf,
  requireSegment,
  slugTaken,
  type SegmentInput,
  type SegmentRef,
} from './segment-rules.js';
import { segmentUsage } from './read-segments.js';

// Writing segments: create, update, delete (refused while a campaign or workflow uses one).

/** DYNAMIC needs a filter, STATIC refuses one; the member count is counted at once. */
export async function createSegment({
  sql,
  projectId,
  input,
}: {
  sql: Sql;
  projectId: string;
  input: SegmentInput;
}): Promise<SegmentView> {
  if (input.type === 'DYNAMIC' && !input.filter) {
    throw validationError({
      field: 'filters',
      message: 'A DYNAMIC segment needs a filter',
      code: 'required',
    });
  }
  if (input.type === 'STATIC' && input.filter) {
    throw validationError({
      field: input.filterField,
      message: 'A STATIC segment has members, not a filter',
      code: 'not_allowed',
    });
  }
  if (input.filter) {
    await checkReferences(sql, { projectId, filter: input.filter, field: input.filterField });
  }
  const slug = segmentSlug(input.name);
  let row: SegmentRow;
  try {
    row = await insertSegment(sql, {
      id: newId(),
      projectId,
      name: input.name,
      slug,
      description: input.description ?? null,
      type: input.type,
      filter: input.filter ?? null,
      trackMembership: input.trackMembership,
      references: filterReferences(input.filter),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken(slug);
    throw error;
  }
  const memberCount = await countOf(sql, row);
  await setMemberCount(sql, { segmentId: row.id, memberCount });
  return toSegmentView({ ...row, member_count: memberCount, member_count_at: new Date() });
}

/**
 * Name, description, filter (DYNAMIC only) and tracking. A new filter is recounted. Tracking
 * turned off forgets the stored membership, so turning it on again starts from nobody (the next
 * compute fires an entry for every member).
 */
export async function updateSegment({
  sql,
  projectId,
  segmentId,
  patch,
}: SegmentRef & {
  patch: {
    name?: string;
    description?: string | null;
    filter?: Filter;
    filterField: string;
    trackMembership?: boolean;
  };
}): Promise<SegmentView> {
  const current = await requireSegment({ sql, projectId, segmentId });
  if (patch.filter && current.type === 'STATIC') {
    throw validationError({
      field: patch.filterField,
      message: 'A STATIC segment has members, not a filter',
      code: 'not_allowed',
    });
  }
  if (patch.filter) {
    await checkReferences(sql, {
      projectId,
      segmentId,
      filter: patch.filter,
      field: patch.filterField,
    });
  }
  const slug = patch.name === undefined ? undefined : segmentSlug(patch.name);
  let row: SegmentRow | undefined;
  try {
    row = await sql.transaction(async (tx) => {
      const updated = await updateSegmentRow(tx, {
        projectId,
        segmentId,
        name: patch.name,
        slug,
        description: patch.description,
        filter: patch.filter,
        references: patch.filter ? filterReferences(patch.filter) : undefined,
        trackMembership: patch.trackMembership,
      });
      if (updated && current.track_membership && patch.trackMembership === false) {
        await deleteMembers(tx, { segmentId });
      }
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken(slug ?? current.slug);
    throw error;
  }
  if (!row) throw notFound('Segment');
  if (!patch.filter) return toSegmentView(row);
  const memberCount = await countOf(sql, row);
  await setMemberCount(sql, { segmentId, memberCount });
  return toSegmentView({ ...row, member_count: memberCount, member_count_at: new Date() });
}

/**
 * Refused (409) while other segments, workflows or an active (SCHEDULED or SENDING) campaign use
 * the segment; its members and computes go with it. A draft naming it is refused at its send.
 */
export async function deleteSegment(ref: SegmentRef): Promise<void> {
  const usage = await segmentUsage(ref);
  const users = [
    ...usage.segments.map((s) => `segment "${s.name}"`),
    ...usage.workflows.map((w) => `workflow "${w.name}"`),
    ...usage.campaigns
      .filter((c) => isActiveCampaign(c.status))
      .map((c) => `${c.status} campaign "${c.name}"`),
  ];
  if (users.length > 0) {
    throw conflict(
      `The segment is used by ${users.join(', ')}`,
      'Change or delete the segments and workflows that use it, and cancel the campaigns, first.',
    );
  }
  const { sql, projectId, segmentId } = ref;
  if (!(await deleteSegmentRow(sql, { projectId, segmentId }))) throw notFound('Segment');
}
