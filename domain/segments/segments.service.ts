import { campaignsReferencing } from '../../db/sql/campaigns.sql.js';
import { isActiveCampaign, type CampaignStatus } from '../campaigns/campaign-status.pure.js';
import { upsertContacts } from '../../db/sql/contact-upsert.sql.js';
import { findContactsByEmail } from '../../db/sql/contacts.sql.js';
import {
  addMembersByEmail,
  countMatchingContacts,
  countMembers,
  deleteMembers,
  deleteSegmentRow,
  findSegment,
  findSegmentDefinitions,
  insertSegment,
  listSegmentRows,
  pageOfMatchingContacts,
  pageOfMembers,
  removeMembersByEmail,
  segmentsReferencing,
  setMemberCount,
  updateSegmentRow,
  type SegmentRow,
} from '../../db/sql/segments.sql.js';
import { isUniqueViolation, type Sql } from '../../db/sql/sql.js';
import { workflowsReferencing } from '../../db/sql/workflows.sql.js';
import { toContactView, type ContactView } from '../contacts/contact-view.js';
import { normaliseEmail } from '../contacts/data-rules.pure.js';
import { DomainError, conflict, notFound, validationError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { pageResult, type PageResult } from '../shared/pagination.js';
import type { SegmentComputeResult, WorkflowEngine } from '../shared/ports.js';
import type { Filter } from './filter/ast.pure.js';
import { compileFilter, type SqlFragment } from './filter/compile-sql.pure.js';
import type { SegmentDefinition } from './filter/evaluate.pure.js';
import { cycleThrough, filterReferences } from './filter/references.pure.js';
import { segmentSlug, type SegmentType } from './segment-type.pure.js';

export interface SegmentView {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  type: SegmentType;
  /** The filter of a DYNAMIC segment (also answered as `condition`, the spec's other name). */
  filters: Filter | null;
  condition: Filter | null;
  trackMembership: boolean;
  /** Cached: counted on create and change, by refresh and by compute. */
  memberCount: number;
  memberCountAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toSegmentView(row: SegmentRow): SegmentView {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    type: row.type,
    filters: row.filter,
    condition: row.filter,
    trackMembership: row.track_membership,
    memberCount: row.member_count,
    memberCountAt: row.member_count_at ? new Date(row.member_count_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

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
async function checkReferences(
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

async function countOf(sql: Sql, row: SegmentRow): Promise<number> {
  if (row.type === 'STATIC' || !row.filter) return countMembers(sql, { segmentId: row.id });
  const where = await compileForProject(sql, { projectId: row.project_id, filter: row.filter });
  return countMatchingContacts(sql, { projectId: row.project_id, where });
}

async function requireSegment(sql: Sql, projectId: string, segmentId: string): Promise<SegmentRow> {
  const row = await findSegment(sql, { projectId, segmentId });
  if (!row) throw notFound('Segment');
  return row;
}

const slugTaken = (slug: string) =>
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
}: {
  sql: Sql;
  projectId: string;
  segmentId: string;
  patch: {
    name?: string;
    description?: string | null;
    filter?: Filter;
    filterField: string;
    trackMembership?: boolean;
  };
}): Promise<SegmentView> {
  const current = await requireSegment(sql, projectId, segmentId);
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

/**
 * Refused (409) while other segments, workflows or an active (SCHEDULED or SENDING) campaign use
 * the segment; its members and computes go with it. A draft naming it is refused at its send.
 */
export async function deleteSegment({
  sql,
  projectId,
  segmentId,
}: {
  sql: Sql;
  projectId: string;
  segmentId: string;
}): Promise<void> {
  const usage = await segmentUsage({ sql, projectId, segmentId });
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
  if (!(await deleteSegmentRow(sql, { projectId, segmentId }))) throw notFound('Segment');
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

/** Counts the members again and keeps the count; no events, no membership written. */
export async function refreshSegment({
  sql,
  projectId,
  segmentId,
}: {
  sql: Sql;
  projectId: string;
  segmentId: string;
}): Promise<{ memberCount: number }> {
  const segment = await requireSegment(sql, projectId, segmentId);
  const memberCount = await countOf(sql, segment);
  await setMemberCount(sql, { segmentId, memberCount });
  return { memberCount };
}

async function requireStatic(sql: Sql, projectId: string, segmentId: string): Promise<SegmentRow> {
  const segment = await requireSegment(sql, projectId, segmentId);
  if (segment.type !== 'STATIC') {
    throw conflict(
      'Only a STATIC segment has members added or removed by hand',
      'A DYNAMIC segment has the contacts its filter matches.',
    );
  }
  return segment;
}

/**
 * Adds contacts by email to a STATIC segment, creating the missing ones when asked (subscribed
 * as given, true by default). Answers how many joined, how many contacts were created, and the
 * emails that are not contacts.
 */
export async function addStaticMembers({
  sql,
  projectId,
  segmentId,
  emails,
  createMissing,
  subscribed,
}: {
  sql: Sql;
  projectId: string;
  segmentId: string;
  emails: string[];
  createMissing: boolean;
  subscribed: boolean;
}): Promise<{ added: number; created: number; notFound: string[] }> {
  await requireStatic(sql, projectId, segmentId);
  const wanted = [...new Set(emails.map(normaliseEmail))];
  const result = await sql.transaction(async (tx) => {
    let created = 0;
    if (createMissing) {
      const existing = new Set(
        (await findContactsByEmail(tx, { projectId, emails: wanted })).map((c) => c.email),
      );
      const written = await upsertContacts(tx, {
        projectId,
        defaultSubscribed: subscribed,
        source: 'segment',
        rows: wanted
          .filter((email) => !existing.has(email))
          .map((email) => ({
            id: newId(),
            email,
            subscribed: null,
            set: {},
            unset: [],
            flipEventId: newId(),
          })),
      });
      created = written.filter((w) => w.inserted).length;
    }
    const { added, found } = await addMembersByEmail(tx, { projectId, segmentId, emails: wanted });
    const known = new Set(found);
    return { added, created, notFound: wanted.filter((e) => !known.has(e)) };
  });
  await setMemberCount(sql, { segmentId, memberCount: await countMembers(sql, { segmentId }) });
  return result;
}

export async function removeStaticMembers({
  sql,
  projectId,
  segmentId,
  emails,
}: {
  sql: Sql;
  projectId: string;
  segmentId: string;
  emails: string[];
}): Promise<{ removed: number }> {
  await requireStatic(sql, projectId, segmentId);
  const removed = await removeMembersByEmail(sql, {
    projectId,
    segmentId,
    emails: [...new Set(emails.map(normaliseEmail))],
  });
  await setMemberCount(sql, { segmentId, memberCount: await countMembers(sql, { segmentId }) });
  return { removed };
}

/**
 * Recomputes a tracked DYNAMIC segment now, firing one entry or exit event per change, and
 * answers what changed. It runs as the segment's durable compute workflow: a compute already
 * running (the schedule's) is joined, not doubled.
 */
export async function computeSegment({
  sql,
  engine,
  projectId,
  segmentId,
}: {
  sql: Sql;
  engine: WorkflowEngine;
  projectId: string;
  segmentId: string;
}): Promise<SegmentComputeResult> {
  const segment = await requireSegment(sql, projectId, segmentId);
  if (segment.type !== 'DYNAMIC' || !segment.track_membership) {
    throw conflict(
      'Only a DYNAMIC segment with trackMembership computes its membership',
      'Turn trackMembership on (PATCH) first; POST /refresh recounts any segment.',
    );
  }
  try {
    return await engine.computeSegment({ segmentId, projectId });
  } catch {
    // Temporal unreachable, or the compute failed for good: nothing half-done is answered.
    throw new DomainError('SERVICE_UNAVAILABLE', 'The compute could not be run now', {
      suggestion: 'Retry in a moment; the schedule also recomputes tracked segments.',
    });
  }
}
