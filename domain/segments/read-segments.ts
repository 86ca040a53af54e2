import {
  countMatchingContacts,
  countMembers,
  pageOfMatchingContacts,
  pageOfMembers,
} from '../../db/sql/segment-members.sql.js';
import { listSegmentRows } from '../../db/sql/segments.sql.js';
import { type Sql } from '../../db/sql/sql.js';
import { toContactView, type ContactView } from '../contacts/contact-view.js';
import { pageResult, type PageResult } from '../shared/pagination.js';
import { usageOf, type Usage } from '../shared/usage.js';
import { toSegmentView, type SegmentView } from './segment-view.js';
import { compileForProject, requireSegment, type SegmentRef } from './segment-rules.js';

// Reading segments: the list, one, where one is used, its members.

export async function listSegments({
  sql,
  projectId,
}: {
  sql: Sql;
  projectId: string;
}): Promise<SegmentView[]> {
  return (await listSegmentRows(sql, { projectId })).map(toSegmentView);
}

export async function getSegment(ref: SegmentRef): Promise<SegmentView> {
  return toSegmentView(await requireSegment(ref));
}

/** What uses a segment: other segments' filters, campaigns' audiences, workflows it triggers. */
export async function segmentUsage(ref: SegmentRef): Promise<Usage> {
  await requireSegment(ref);
  return usageOf(ref.sql, { projectId: ref.projectId, segmentId: ref.segmentId });
}

/** Members page by page: live for a DYNAMIC segment, the stored list for a STATIC one. */
export async function listSegmentContacts({
  sql,
  projectId,
  segmentId,
  page,
  pageSize,
}: SegmentRef & { page: number; pageSize: number }): Promise<PageResult<ContactView>> {
  const segment = await requireSegment({ sql, projectId, segmentId });
  const offset = (page - 1) * pageSize;
  if (segment.type === 'STATIC' || !segment.filter) {
    const [rows, total] = await Promise.all([
      pageOfMembers(sql, { segmentId, limit: pageSize, offset }),
      countMembers(sql, { segmentId }),
    ]);
    return pageResult({ data: rows.map(toContactView), total, page, pageSize });
  }
  const where = await compileForProject(sql, { projectId, filter: segment.filter });
  const [rows, total] = await Promise.all([
    pageOfMatchingContacts(sql, { projectId, where, limit: pageSize, offset }),
    countMatchingContacts(sql, { projectId, where }),
  ]);
  return pageResult({ data: rows.map(toContactView), total, page, pageSize });
}
