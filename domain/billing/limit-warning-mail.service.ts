import { findUnmailedLimitWarnings, markLimitWarningsMailed } from '../../db/sql/billing.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { PROJECT_ROLES, roleAtLeast } from '../projects/roles.pure.js';
import type { WorkflowEngine } from '../shared/ports.js';

/** Warnings older than this are not emailed any more (their month is over, or nearly). */
const LOOKBACK_DAYS = 31;
const BATCH = 500;

/** Who hears of a project's limit warnings: those who may change its caps. */
const TOLD_ROLES = PROJECT_ROLES.filter((role) => roleAtLeast(role, 'ADMIN'));

/**
 * Emails each `billing.limit_warning` recorded lately to the project's owners and admins, once:
 * one durable system email per warning and person, whose workflow id is made of both, so a run
 * that dies before recording the warning as emailed starts nothing twice.
 */
export async function mailLimitWarnings({
  sql,
  engine,
  now = new Date(),
}: {
  sql: Sql;
  engine: Pick<WorkflowEngine, 'startSystemEmail'>;
  now?: Date;
}): Promise<{ mailed: number }> {
  const since = new Date(now.getTime() - LOOKBACK_DAYS * 24 * 3600 * 1000);
  let mailed = 0;
  for (;;) {
    const warnings = await findUnmailedLimitWarnings(sql, {
      since,
      roles: [...TOLD_ROLES],
      limit: BATCH,
    });
    for (const warning of warnings) {
      for (const userId of warning.user_ids) {
        await engine.startSystemEmail({
          requestId: `billing-warning-${warning.event_id}-${userId}`,
          kind: 'BILLING_LIMIT_WARNING',
          userId,
          projectId: warning.project_id,
          limit: {
            category: warning.category,
            used: warning.used,
            cap: warning.cap,
            periodStart: warning.period_start,
          },
        });
        mailed += 1;
      }
    }
    await markLimitWarningsMailed(sql, { eventIds: warnings.map((w) => w.event_id) });
    if (warnings.length < BATCH) return { mailed };
  }
}
