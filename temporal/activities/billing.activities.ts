import type { Sql } from '../../db/sql/sql.js';
import { mailLimitWarnings } from '../../domain/billing/limit-warning-mail.service.js';
import { reportUsage } from '../../domain/billing/usage-report.service.js';
import type { PaymentProvider, WorkflowEngine } from '../../domain/shared/ports.js';
import { heartbeating } from './heartbeating.js';

export function createBillingActivities({
  sql,
  payments,
  engine,
}: {
  sql: Sql;
  /** Undefined with billing off: reports nothing. */
  payments: PaymentProvider | undefined;
  engine: Pick<WorkflowEngine, 'startSystemEmail'>;
}) {
  return {
    /**
     * Run by the `billing-usage` schedule: the finished hours of usage, to Stripe; then the
     * limit warnings recorded since, by email to each project's owners and admins.
     */
    async reportBillingUsage(): Promise<{ reported: number; mailed: number }> {
      return heartbeating(async (note) => {
        const { reported } = await reportUsage({
          sql,
          payments,
          progress: (n) => note({ reported: n }),
        });
        const { mailed } = await mailLimitWarnings({ sql, engine });
        return { reported, mailed };
      });
    },
  };
}
