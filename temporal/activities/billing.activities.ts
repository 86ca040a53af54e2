import type { Sql } from '../../db/sql/sql.js';
import { reportUsage } from '../../domain/billing/usage-report.service.js';
import type { PaymentProvider } from '../../domain/shared/ports.js';
import { heartbeating } from './heartbeating.js';

export function createBillingActivities({
  sql,
  payments,
}: {
  sql: Sql;
  /** Undefined with billing off: reports nothing. */
  payments: PaymentProvider | undefined;
}) {
  return {
    /** Run by the `billing-usage` schedule: the finished hours of usage, to Stripe. */
    async reportBillingUsage(): Promise<{ reported: number }> {
      return heartbeating((note) =>
        reportUsage({ sql, payments, progress: (reported) => note({ reported }) }),
      );
    },
  };
}
