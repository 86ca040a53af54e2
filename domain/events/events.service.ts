import { contactExists } from '../../db/sql/contacts.sql.js';
import {
  countEvents,
  deleteEventsNamed,
  eventNameCounts,
  eventTotals,
  listEventRows,
  topEventNames,
  type EventRow,
  type EventTotals,
} from '../../db/sql/events.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { notFound } from '../shared/errors.js';
import { usageOf, type Usage } from '../shared/usage.js';
import { canonicalEventName } from './event-names.pure.js';
import { newestFirstPage, type CursorPage, type PageRequest } from '../shared/pagination.js';

export interface EventView {
  id: string;
  name: string;
  /** Null for an event of the whole project (`billing.limit_warning`). */
  contactId: string | null;
  contactEmail: string | null;
  data: Record<string, unknown>;
  createdAt: string;
}

const toEventView = (row: EventRow): EventView => ({
  id: row.id,
  name: row.name,
  contactId: row.contact_id,
  contactEmail: row.email,
  data: row.data ?? {},
  createdAt: new Date(row.created_at).toISOString(),
});

/** Newest first, by keyset on the (time-ordered) id; optionally one event name or one contact. */
export async function listEvents({
  sql,
  projectId,
  name,
  contactId,
  ...page
}: PageRequest & {
  sql: Sql;
  projectId: string;
  name?: string;
  contactId?: string;
}): Promise<CursorPage<EventView>> {
  const filter = { projectId, name, contactId };
  return newestFirstPage(page, {
    rows: (after) => listEventRows(sql, { ...filter, ...after }),
    count: () => countEvents(sql, filter),
    view: toEventView,
  });
}

export async function listContactEvents(input: {
  sql: Sql;
  projectId: string;
  contactId: string;
  limit: number;
  cursor?: string;
}): Promise<CursorPage<EventView>> {
  if (!(await contactExists(input.sql, input))) throw notFound('Contact');
  return listEvents(input);
}

export interface EventStats extends EventTotals {
  topEvents: { name: string; count: number }[];
}

export async function eventStats({
  sql,
  projectId,
}: {
  sql: Sql;
  projectId: string;
}): Promise<EventStats> {
  const [totals, topEvents] = await Promise.all([
    eventTotals(sql, { projectId }),
    topEventNames(sql, { projectId, limit: 10 }),
  ]);
  return { ...totals, topEvents };
}

export async function listEventNames({
  sql,
  projectId,
}: {
  sql: Sql;
  projectId: string;
}): Promise<{ names: { name: string; count: number; lastSeenAt: string }[] }> {
  const rows = await eventNameCounts(sql, { projectId });
  return {
    names: rows.map((r) => ({
      name: r.name,
      count: r.count,
      lastSeenAt: new Date(r.last).toISOString(),
    })),
  };
}

/** The events of a project that have one name. */
interface EventNameRef {
  sql: Sql;
  projectId: string;
  name: string;
}

/**
 * Where an event name is referenced: segment filters and campaign audiences that read it,
 * workflows it triggers or that wait for it (Plunk's spellings of the email events count as ours).
 */
export async function eventUsage({
  sql,
  projectId,
  name,
}: EventNameRef): Promise<{ event: string } & Usage> {
  const { segments, workflows, campaigns } = await usageOf(sql, {
    projectId,
    event: canonicalEventName(name),
  });
  return { event: name, segments, workflows, campaigns };
}

export async function deleteEventsByName({
  sql,
  projectId,
  name,
}: EventNameRef): Promise<{ event: string; deleted: number }> {
  return { event: name, deleted: await deleteEventsNamed(sql, { projectId, name }) };
}
