import { findUnreportedUsage, markUsageReported } from '../../db/sql/billing.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import type { PaymentProvider } from '../shared/ports.js';

/** How far back unreported hours are still reported (Stripe takes events up to 35 days old). */
const LOOKBACK_HOURS = 48;
/** An hour is reported once it has been over this long, so mail accepted at its end is in. */
const SETTLE_MS = 5 * 60 * 1000;

/** The meter event's identifier: the same hour of the same usage always has the same one. */
export const usageIdentifier = (projectId: string, category: string, hour: Date): string =>
  `mailwright-${projectId}-${category}-${hour.toISOString()}`;

/**
 * Reports each finished hour of usage (email rows per project with a Stripe customer, and
 * category) as one meter event, then records it. A report that dies between the two sends the
 * same identifier again next time, which Stripe counts once. Nothing happens with billing off.
 */
export async function reportUsage({
  sql,
  payments,
  now = new Date(),
  progress = () => undefined,
}: {
  sql: Sql;
  payments: PaymentProvider | undefined;
  now?: Date;
  progress?: (reported: number) => void;
}): Promise<{ reported: number }> {
  if (!payments) return { reported: 0 };
  const until = new Date(now.getTime() - SETTLE_MS);
  until.setUTCMinutes(0, 0, 0);
  const since = new Date(until.getTime() - LOOKBACK_HOURS * 3600 * 1000);
  const usage = await findUnreportedUsage(sql, { since, until });
  let reported = 0;
  for (const hour of usage) {
    await payments.reportMeterEvent({
      customerId: hour.customer_id,
      value: hour.value,
      category: hour.category,
      identifier: usageIdentifier(hour.project_id, hour.category, hour.hour),
      // Inside the hour it counts, so the invoice period it lands in is the hour's.
      at: new Date(hour.hour.getTime() + 3599 * 1000),
    });
    await markUsageReported(sql, {
      projectId: hour.project_id,
      category: hour.category,
      hour: hour.hour,
      value: hour.value,
    });
    reported += 1;
    progress(reported);
  }
  return { reported };
}
