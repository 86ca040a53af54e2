import { upsertContacts } from '../../db/sql/contact-upsert.sql.js';
import { findContactsByEmail } from '../../db/sql/contacts.sql.js';
import {
  addMembersByEmail,
  countMembers,
  removeMembersByEmail,
} from '../../db/sql/segment-members.sql.js';
import { setMemberCount } from '../../db/sql/segments.sql.js';
import { normaliseEmail } from '../contacts/data-rules.pure.js';
import { conflict, unavailable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { SegmentComputeResult, WorkflowEngine } from '../shared/ports.js';
import { countOf, requireSegment, requireStatic, type SegmentRef } from './segment-rules.js';

// Membership: a refresh of the count, STATIC members added and removed, a tracked compute.

/** Counts the members again and keeps the count; no events, no membership written. */
export async function refreshSegment(ref: SegmentRef): Promise<{ memberCount: number }> {
  const segment = await requireSegment(ref);
  const memberCount = await countOf(ref.sql, segment);
  await setMemberCount(ref.sql, { segmentId: ref.segmentId, memberCount });
  return { memberCount };
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
}: SegmentRef & {
  emails: string[];
  createMissing: boolean;
  subscribed: boolean;
}): Promise<{ added: number; created: number; notFound: string[] }> {
  await requireStatic({ sql, projectId, segmentId });
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
}: SegmentRef & { emails: string[] }): Promise<{ removed: number }> {
  await requireStatic({ sql, projectId, segmentId });
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
  engine,
  ...ref
}: SegmentRef & { engine: WorkflowEngine }): Promise<SegmentComputeResult> {
  const segment = await requireSegment(ref);
  if (segment.type !== 'DYNAMIC' || !segment.track_membership) {
    throw conflict(
      'Only a DYNAMIC segment with trackMembership computes its membership',
      'Turn trackMembership on (PATCH) first; POST /refresh recounts any segment.',
    );
  }
  try {
    return await engine.computeSegment({ segmentId: ref.segmentId, projectId: ref.projectId });
  } catch {
    // Temporal unreachable, or the compute failed for good: nothing half-done is answered.
    throw unavailable(
      'The compute could not be run now',
      'Retry in a moment; the schedule also recomputes tracked segments.',
    );
  }
}
