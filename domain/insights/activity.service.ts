import {
  countActivity,
  countByName,
  countEmailEvents,
  listActivityRows,
  listScheduledCampaigns,
  listWaitingExecutions,
  namesPresent,
  type ActivityFilter,
  type ActivityRow,
} from '../../db/sql/activity.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { cursorPage, decodeCursor, type CursorPage } from '../shared/pagination.js';
import { resolveWindow, type LimitedRead } from './window.js';
import {
  ACTIVITY_EVENT,
  ACTIVITY_TYPES,
  activityTypeOfEvent,
  type ActivityType,
  type EmailEventName,
} from './activity-type.pure.js';

export interface ActivityItem {
  id: string;
  type: ActivityType;
  occurredAt: string;
  contact: { id: string; email: string | null };
  emailId: string | null;
  subject: string | null;
  campaign: { id: string; name: string } | null;
  workflow: { id: string; name: string } | null;
  data: Record<string, unknown>;
}

function toItem(row: ActivityRow): ActivityItem {
  const data = row.data ?? {};
  return {
    id: row.id,
    type: activityTypeOfEvent(row.name) as ActivityType,
    occurredAt: new Date(row.created_at).toISOString(),
    contact: { id: row.contact_id, email: row.contact_email },
    emailId: typeof data.emailId === 'string' ? data.emailId : null,
    subject: typeof data.subject === 'string' ? data.subject : null,
    campaign: row.campaign_id ? { id: row.campaign_id, name: row.campaign_name ?? '' } : null,
    workflow: row.workflow_id ? { id: row.workflow_id, name: row.workflow_name ?? '' } : null,
    data,
  };
}

const eventNames = (types: readonly ActivityType[]): EmailEventName[] =>
  types.map((t) => ACTIVITY_EVENT[t]);

/**
 * The feed's total: kept per type for the whole feed; for a time window (both ends, no other
 * filter) from the counts kept per hour, with only its partial first and last hours counted (as
 * the stats of a window are), so a day's total does not count the day's events; counted when a
 * contact, a campaign or one open end narrows it.
 */
async function countFeed(
  sql: Sql,
  filter: ActivityFilter & { names: EmailEventName[] },
): Promise<number> {
  const { projectId, names, from, to, contactId, campaignId } = filter;
  if (contactId || campaignId) return countActivity(sql, filter);
  if (from && to) {
    const byName = await countByName(sql, { projectId, names, from, to });
    return Object.values(byName).reduce((a, b) => a + b, 0);
  }
  if (from || to) return countActivity(sql, filter);
  return countEmailEvents(sql, { projectId, names });
}

/** The feed: one cursor list across sends, deliveries, opens, clicks, bounces, complaints, inbound. */
export async function listActivity({
  sql,
  projectId,
  types = ACTIVITY_TYPES,
  from,
  to,
  contactId,
  campaignId,
  limit,
  cursor,
}: {
  sql: Sql;
  projectId: string;
  types?: readonly ActivityType[];
  from?: Date;
  to?: Date;
  contactId?: string;
  campaignId?: string;
  limit: number;
  cursor?: string;
}): Promise<CursorPage<ActivityItem>> {
  if (from && to) resolveWindow({ from, to }); // from <= to, at most 366 days
  const filter = { projectId, names: eventNames(types), from, to, contactId, campaignId };
  const [rows, total] = await Promise.all([
    listActivityRows(sql, {
      ...filter,
      beforeId: cursor ? decodeCursor(cursor).id : undefined,
      limit: limit + 1,
    }),
    cursor ? undefined : countFeed(sql, filter),
  ]);
  return cursorPage({
    rows: rows.map(toItem),
    limit,
    total,
    positionOf: (item) => ({ sort: item.id, id: item.id }),
  });
}

/** Counts per activity type in [from, to), every type present (0 when none). */
export async function activityStats({
  sql,
  projectId,
  ...window
}: {
  sql: Sql;
  projectId: string;
  from?: Date;
  to?: Date;
}): Promise<{ from: string; to: string; counts: Record<ActivityType, number>; total: number }> {
  const { from, to } = resolveWindow(window);
  const byName = await countByName(sql, { projectId, names: eventNames(ACTIVITY_TYPES), from, to });
  const counts = Object.fromEntries(
    ACTIVITY_TYPES.map((t) => [t, byName[ACTIVITY_EVENT[t]] ?? 0]),
  ) as Record<ActivityType, number>;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return { from: from.toISOString(), to: to.toISOString(), counts, total };
}

/** How many activity items arrived in the last `minutes`. */
export async function recentActivityCount({
  sql,
  projectId,
  minutes,
  now = new Date(),
}: {
  sql: Sql;
  projectId: string;
  minutes: number;
  now?: Date;
}): Promise<{ minutes: number; count: number }> {
  const { total } = await activityStats({
    sql,
    projectId,
    from: new Date(now.getTime() - minutes * 60_000),
    to: new Date(now.getTime() + 1),
  });
  return { minutes, count: total };
}

/** The activity types the project has any item of, in the feed's order. */
export async function activityTypes({
  sql,
  projectId,
}: {
  sql: Sql;
  projectId: string;
}): Promise<ActivityType[]> {
  const present = new Set(
    await namesPresent(sql, { projectId, names: eventNames(ACTIVITY_TYPES) }),
  );
  return ACTIVITY_TYPES.filter((t) => present.has(ACTIVITY_EVENT[t]));
}

export interface UpcomingActivity {
  campaigns: { id: string; name: string; scheduledFor: string }[];
  executions: {
    id: string;
    workflow: { id: string; name: string };
    contact: { id: string; email: string };
    stepId: string | null;
    stepType: string | null;
    waitingSince: string | null;
    wakesAt: string | null;
  }[];
}

/** Scheduled campaigns with their time, and WAITING executions with their next wake-up. */
export async function upcomingActivity({
  sql,
  projectId,
  limit,
}: LimitedRead): Promise<UpcomingActivity> {
  const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);
  const [campaigns, executions] = await Promise.all([
    listScheduledCampaigns(sql, { projectId, limit }),
    listWaitingExecutions(sql, { projectId, limit }),
  ]);
  return {
    campaigns: campaigns.map((c) => ({
      id: c.id,
      name: c.name,
      scheduledFor: new Date(c.scheduled_at).toISOString(),
    })),
    executions: executions.map((x) => ({
      id: x.id,
      workflow: { id: x.workflow_id, name: x.workflow_name },
      contact: { id: x.contact_id, email: x.contact_email },
      stepId: x.current_step_id,
      stepType: x.step_type,
      waitingSince: iso(x.waiting_since),
      wakesAt: iso(x.wakes_at),
    })),
  };
}
