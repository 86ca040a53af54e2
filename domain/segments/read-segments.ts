import { campaignsReferencing } from '../../db/sql/campaigns.sql.js';
import { type CampaignStatus } from '../campaigns/campaign-status.pure.js';
import {
  countMatchingContacts,
  countMembers,
  pageOfMatchingContacts,
  pageOfMembers,
} from '../../db/sql/segment-members.sql.js';
import { listSegmentRows, segmentsReferencing } from '../../db/sql/segments.sql.js';
import { type Sql } from '../../db/sql/sql.js';
import { workflowsReferencing } from '../../db/sql/workflows.sql.js';
import { toContactView, type ContactView } from '../contacts/contact-view.js';
import { pageResult, type PageResult } from '../shared/pagination.js';
import { toSegmentView, type SegmentView } from './segment-view.js';
import { compileForProject, requireSegment } from './segment-rules.js';

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

export async function getSegment({
  sql,
  projectId,
  segmentId,
}: {
  sql: Sql;
  projectId: string;
  segmentId: string;
}): Promise<SegmentView> {
  return toSegmentView(await requireSegment(sql, projectId, segmentId));
}

/** What uses a segment: other segments' filters, campaigns' audiences, workflows it triggers. */
export async function segmentUsage({
  sql,
  projectId,
  segmentId,
}: {
  sql: Sql;
  projectId: string;
  segmentId: string;
}): Promise<{
  segments: { id: string; name: string }[];
  campaigns: { id: string; name: string; status: CampaignStatus }[];
  workflows: { id: string; name: string; enabled: boolean }[];
}> {
  await requireSegment(sql, projectId, segmentId);
  const [segments, campaigns, workflows] = await Promise.all([
    segmentsReferencing(sql, { projectId, segmentId }),
    campaignsReferencing(sql, { projectId, segmentId }),
    workflowsReferencing(sql, { projectId, segmentId }),
  ]);
  return { segments, campaigns, workflows };
}

/** Members page by page: live for a DYNAMIC segment, the stored list for a STATIC one. */
export async function listSegmentContacts({
  sql,
  projectId,
  segmentId,
  page,
  pageSize,
}: {
  sql: Sql;
  projectId: string;
  segmentId: string;
  page: number;
  pageSize: number;
}): Promise<PageResult<ContactView>> {
  const segment = await requireSegment(sql, projectId, segmentId);
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
