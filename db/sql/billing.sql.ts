import {
  WARNING_SHARE,
  type BillingCategory,
  type BillingPlan,
} from '../../domain/billing/billing-vocabulary.pure.js';
import { LIMIT_WARNING_EVENT } from '../../domain/events/event-names.pure.js';
import { findColumn } from './rows.js';
import type { Sql } from './sql.js';

export interface ProjectBillingRow {
  project_name: string;
  stripe_customer_id: string | null;
  plan: BillingPlan;
  subscription_id: string | null;
  subscription_status: string | null;
}

/** The project's billing; a project that never touched billing is FREE with no customer. */
export async function findProjectBilling(
  sql: Sql,
  { projectId }: { projectId: string },
): Promise<ProjectBillingRow> {
  const [row] = await sql.query<ProjectBillingRow>(
    `SELECT p.name AS project_name, b.stripe_customer_id, coalesce(b.plan, 'FREE') AS plan,
            b.subscription_id, b.subscription_status
       FROM projects p LEFT JOIN project_billing b ON b.project_id = p.id
      WHERE p.id = $1`,
    [projectId],
  );
  return row!;
}

/** Keeps the project's customer unless it has one already; answers the one it keeps. */
export async function keepCustomerId(
  sql: Sql,
  { projectId, customerId }: { projectId: string; customerId: string },
): Promise<string> {
  const [row] = await sql.query<{ stripe_customer_id: string }>(
    `INSERT INTO project_billing AS b (project_id, stripe_customer_id) VALUES ($1, $2)
     ON CONFLICT (project_id) DO UPDATE
        SET stripe_customer_id = coalesce(b.stripe_customer_id, excluded.stripe_customer_id),
            updated_at = now()
     RETURNING stripe_customer_id`,
    [projectId, customerId],
  );
  return row!.stripe_customer_id;
}

/** The project whose customer is `customerId`, if any. */
export async function findProjectOfCustomer(
  sql: Sql,
  { customerId }: { customerId: string },
): Promise<string | undefined> {
  return findColumn<string>(
    sql,
    { table: 'project_billing', column: 'project_id', key: 'stripe_customer_id' },
    customerId,
  );
}

/**
 * Records a Stripe event as applied; false when it was already (a redelivery), in which case
 * the caller changes nothing. Meant to run in the transaction that applies it.
 */
export async function recordStripeEvent(
  sql: Sql,
  { id, type, projectId }: { id: string; type: string; projectId: string | null },
): Promise<boolean> {
  const rows = await sql.query(
    `INSERT INTO stripe_events (id, type, project_id) VALUES ($1, $2, $3)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [id, type, projectId],
  );
  return rows.length === 1;
}

/** Sets the project's plan and subscription (the customer too, when the event names one). */
export async function setSubscription(
  sql: Sql,
  {
    projectId,
    customerId,
    plan,
    subscriptionId,
    status,
  }: {
    projectId: string;
    customerId: string | null;
    plan: BillingPlan;
    subscriptionId: string | null;
    status: string;
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO project_billing AS b
            (project_id, stripe_customer_id, plan, subscription_id, subscription_status)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (project_id) DO UPDATE
        SET stripe_customer_id = coalesce(b.stripe_customer_id, excluded.stripe_customer_id),
            plan = excluded.plan,
            subscription_id = coalesce(excluded.subscription_id, b.subscription_id),
            subscription_status = excluded.subscription_status, updated_at = now()`,
    [projectId, customerId, plan, subscriptionId, status],
  );
}

export async function listCaps(
  sql: Sql,
  { projectId }: { projectId: string },
): Promise<{ category: BillingCategory; monthly_cap: number }[]> {
  return sql.query(
    'SELECT category, monthly_cap FROM billing_caps WHERE project_id = $1 ORDER BY category',
    [projectId],
  );
}

/**
 * Replaces the project's caps (a category without one has none) in one transaction, and drops
 * its usage counts so that the next capped request counts again from the email rows.
 */
export async function replaceCaps(
  sql: Sql,
  { projectId, caps }: { projectId: string; caps: { category: BillingCategory; cap: number }[] },
): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query('DELETE FROM billing_caps WHERE project_id = $1', [projectId]);
    await tx.query(
      `INSERT INTO billing_caps (project_id, category, monthly_cap)
       SELECT $1, c, m FROM unnest($2::text[], $3::int[]) AS x(c, m)`,
      [projectId, caps.map((c) => c.category), caps.map((c) => c.cap)],
    );
    await tx.query('DELETE FROM billing_usage WHERE project_id = $1', [projectId]);
  });
}

/** The project's cap of a category, when it has one. */
export async function findCap(
  sql: Sql,
  { projectId, category }: { projectId: string; category: BillingCategory },
): Promise<number | undefined> {
  const [row] = await sql.query<{ monthly_cap: number }>(
    'SELECT monthly_cap FROM billing_caps WHERE project_id = $1 AND category = $2',
    [projectId, category],
  );
  return row?.monthly_cap;
}

/**
 * What a category's mail is, as SQL over `emails e`: a campaign's, a workflow's, or any other
 * accepted email (transactional, campaign test sends included). Suppressed and cancelled mail
 * was never sent and does not count.
 */
const EMAIL_CATEGORY: Record<Exclude<BillingCategory, 'inbound'>, string> = {
  transactional: 'e.campaign_id IS NULL AND e.execution_id IS NULL',
  campaigns: 'e.campaign_id IS NOT NULL',
  workflows: 'e.execution_id IS NOT NULL',
};
const COUNTED = `e.status NOT IN ('SUPPRESSED', 'CANCELLED')`;

/** Mail received (the inbound category) is counted in events: the statement, given its bind refs. */
const receivedCount = (project: string, start: string, end: string): string =>
  `SELECT count(*)::int FROM events
    WHERE project_id = ${project} AND name = 'email.received'
      AND created_at >= ${start} AND created_at < ${end}`;

/** This period's counts per category, from the email rows (and the `email.received` events). */
export async function consumption(
  sql: Sql,
  { projectId, start, end }: { projectId: string; start: string; end: Date },
): Promise<Record<BillingCategory, number>> {
  const [row] = await sql.query<Record<BillingCategory, number>>(
    `SELECT
       count(*) FILTER (WHERE ${EMAIL_CATEGORY.transactional})::int AS transactional,
       count(*) FILTER (WHERE ${EMAIL_CATEGORY.campaigns})::int AS campaigns,
       count(*) FILTER (WHERE ${EMAIL_CATEGORY.workflows})::int AS workflows,
       (${receivedCount('$1', '$2::date', '$3')}) AS inbound
       FROM emails e
      WHERE e.project_id = $1 AND e.created_at >= $2::date AND e.created_at < $3 AND ${COUNTED}`,
    [projectId, start, end],
  );
  return row!;
}

/**
 * Takes `count` from the category's cap for the period, in the caller's transaction: the usage
 * row is made (counted from the email rows) when the period has none, then moved only when
 * `used + count` stays within the cap as it stands now. Its row lock holds concurrent requests
 * back until this transaction ends, so they can never pass the cap together. False when the cap
 * would be passed.
 */
export async function takeFromCap(
  tx: Sql,
  {
    projectId,
    category,
    start,
    end,
    count,
  }: {
    projectId: string;
    category: BillingCategory;
    start: string;
    end: Date;
    count: number;
  },
): Promise<boolean> {
  const counted =
    category === 'inbound'
      ? receivedCount('$1', '$3::date', '$4')
      : `SELECT count(*)::int FROM emails e
          WHERE e.project_id = $1 AND e.created_at >= $3::date AND e.created_at < $4
            AND ${COUNTED} AND ${EMAIL_CATEGORY[category]}`;
  await tx.query(
    `INSERT INTO billing_usage (project_id, category, period_start, used)
     SELECT $1, $2, $3::date, (${counted})
     ON CONFLICT DO NOTHING`,
    [projectId, category, start, end],
  );
  // A cap removed meanwhile takes nothing back: the mail passes.
  const [taken] = await tx.query<{ used: number; cap: number; warned: boolean }>(
    `WITH cap AS (
       SELECT coalesce((SELECT monthly_cap FROM billing_caps c
                         WHERE c.project_id = $1 AND c.category = $2), 2147483647) AS cap)
     UPDATE billing_usage u SET used = used + $4
       FROM cap
      WHERE project_id = $1 AND category = $2 AND period_start = $3::date
        AND used + $4 <= cap.cap
      RETURNING used, cap.cap, warned_at IS NOT NULL AS warned`,
    [projectId, category, start, count],
  );
  if (!taken) return false;
  if (!taken.warned && taken.used >= taken.cap * WARNING_SHARE) {
    await recordLimitWarning(tx, { projectId, category, start, used: taken.used, cap: taken.cap });
  }
  return true;
}

/**
 * Marks the period's usage warned and records a `billing.limit_warning` event of the project
 * (no contact), in the caller's transaction, which holds the usage row's lock: concurrent
 * requests crossing the share together record it once. A period already warned at this cap
 * (before the caps were saved again, which starts the usage row afresh) records nothing more.
 */
async function recordLimitWarning(
  tx: Sql,
  {
    projectId,
    category,
    start,
    used,
    cap,
  }: { projectId: string; category: BillingCategory; start: string; used: number; cap: number },
): Promise<void> {
  await tx.query(
    `WITH warned AS (
       UPDATE billing_usage SET warned_at = now()
        WHERE project_id = $1 AND category = $2::text AND period_start = $3::text::date
          AND warned_at IS NULL
        RETURNING 1)
     INSERT INTO events (id, project_id, contact_id, name, data, created_at)
     SELECT uuid_generate_v7(now()), $1, NULL, $6::text,
            jsonb_build_object('category', $2::text, 'periodStart', $3::text, 'used', $4::int,
                               'cap', $5::int, 'share', $7::float8),
            now()
       FROM warned
      WHERE NOT EXISTS (
        SELECT 1 FROM events e
         WHERE e.project_id = $1 AND e.name = $6::text AND e.data->>'category' = $2::text
           AND e.data->>'periodStart' = $3::text AND (e.data->>'cap')::int = $5::int)`,
    [projectId, category, start, used, cap, LIMIT_WARNING_EVENT, WARNING_SHARE],
  );
}

/** The period's `billing.limit_warning` events of the project, per category (the latest each). */
export async function findLimitWarnings(
  sql: Sql,
  { projectId, start }: { projectId: string; start: string },
): Promise<{ category: BillingCategory; created_at: Date; used: number; cap: number }[]> {
  return sql.query(
    `SELECT DISTINCT ON (data->>'category') data->>'category' AS category, created_at,
            (data->>'used')::int AS used, (data->>'cap')::int AS cap
       FROM events
      WHERE project_id = $1 AND name = $2 AND data->>'periodStart' = $3
      ORDER BY data->>'category', created_at DESC`,
    [projectId, LIMIT_WARNING_EVENT, start],
  );
}

/** The hours in [since, until). */
export type HourRange = { since: Date; until: Date };

export interface UnreportedUsage {
  project_id: string;
  customer_id: string;
  category: Exclude<BillingCategory, 'inbound'>;
  hour: Date;
  value: number;
}

/**
 * The hours in [since, until) with email rows of projects that have a Stripe customer, per
 * project and category, that no report covers yet (one set-based statement).
 */
export async function findUnreportedUsage(sql: Sql, hours: HourRange): Promise<UnreportedUsage[]> {
  return sql.query<UnreportedUsage>(
    `WITH usage AS (
       SELECT e.project_id, b.stripe_customer_id AS customer_id,
              CASE WHEN e.campaign_id IS NOT NULL THEN 'campaigns'
                   WHEN e.execution_id IS NOT NULL THEN 'workflows'
                   ELSE 'transactional' END AS category,
              date_trunc('hour', e.created_at, 'UTC') AS hour, count(*)::int AS value
         FROM emails e JOIN project_billing b ON b.project_id = e.project_id
        WHERE b.stripe_customer_id IS NOT NULL AND e.created_at >= $1 AND e.created_at < $2
          AND ${COUNTED}
        GROUP BY 1, 2, 3, 4)
     SELECT u.* FROM usage u
      WHERE NOT EXISTS (SELECT 1 FROM billing_reports r
                         WHERE r.project_id = u.project_id AND r.category = u.category
                           AND r.hour = u.hour)
      ORDER BY u.hour, u.project_id, u.category`,
    [hours.since, hours.until],
  );
}

/** Records an hour of a project's usage as reported to Stripe. */
export async function markUsageReported(
  sql: Sql,
  {
    projectId,
    category,
    hour,
    value,
  }: { projectId: string; category: string; hour: Date; value: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO billing_reports (project_id, category, hour, value) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [projectId, category, hour, value],
  );
}

export interface UnmailedLimitWarning {
  event_id: string;
  project_id: string;
  category: BillingCategory;
  used: number;
  cap: number;
  period_start: string;
  /** The project's members of these roles (its owners and admins). */
  user_ids: string[];
}

/** `billing.limit_warning` events since `since` not emailed yet, oldest first, with whom to tell. */
export async function findUnmailedLimitWarnings(
  sql: Sql,
  { since, roles, limit }: { since: Date; roles: string[]; limit: number },
): Promise<UnmailedLimitWarning[]> {
  return sql.query<UnmailedLimitWarning>(
    `SELECT e.id AS event_id, e.project_id, e.data->>'category' AS category,
            (e.data->>'used')::int AS used, (e.data->>'cap')::int AS cap,
            e.data->>'periodStart' AS period_start,
            coalesce(array_agg(m.user_id ORDER BY m.user_id)
                       FILTER (WHERE m.user_id IS NOT NULL), '{}') AS user_ids
       FROM events e
       LEFT JOIN project_members m ON m.project_id = e.project_id AND m.role = ANY($3::text[])
      WHERE e.contact_id IS NULL AND e.created_at >= $1 AND e.name = $2
        AND NOT EXISTS (SELECT 1 FROM billing_warning_mails w WHERE w.event_id = e.id)
      GROUP BY e.id
      ORDER BY e.id LIMIT $4`,
    [since, LIMIT_WARNING_EVENT, roles, limit],
  );
}

/** Records limit warnings as emailed (each once). */
export async function markLimitWarningsMailed(
  sql: Sql,
  { eventIds }: { eventIds: string[] },
): Promise<void> {
  if (eventIds.length === 0) return;
  await sql.query(
    `INSERT INTO billing_warning_mails (event_id) SELECT unnest($1::uuid[]) ON CONFLICT DO NOTHING`,
    [eventIds],
  );
}
