import { sendingHealth } from '../../db/sql/projects.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { notFound } from '../shared/errors.js';
import type { SecurityStatus } from './security-status.pure.js';

export const SECURITY_WINDOW_DAYS = 30;
/** The bounce and complaint rates at which the security page warns (the providers' lines). */
const WARN_AT = { bounceRate: 0.05, complaintRate: 0.001 } as const;

export interface SecurityView {
  projectId: string;
  windowDays: number;
  sent: number;
  bounced: number;
  complained: number;
  bounceRate: number;
  complaintRate: number;
  status: SecurityStatus;
  disabled: boolean;
  suspensions: { reason: string; since: string }[];
}

/** Rates are fractions (0..1) of the emails that left in the window; zero when none did. */
export async function projectSecurity({
  sql,
  projectId,
}: {
  sql: Sql;
  projectId: string;
}): Promise<SecurityView> {
  const health = await sendingHealth(sql, { projectId, days: SECURITY_WINDOW_DAYS });
  if (!health) throw notFound('Project');
  const { sent, bounced, complained } = health;
  const bounceRate = sent > 0 ? bounced / sent : 0;
  const complaintRate = sent > 0 ? complained / sent : 0;
  const disabled = health.disabled_at !== null;
  const warning = bounceRate >= WARN_AT.bounceRate || complaintRate >= WARN_AT.complaintRate;
  return {
    projectId,
    windowDays: SECURITY_WINDOW_DAYS,
    sent,
    bounced,
    complained,
    bounceRate,
    complaintRate,
    status: disabled ? 'SUSPENDED' : warning ? 'WARNING' : 'HEALTHY',
    disabled,
    suspensions: health.disabled_at
      ? [
          {
            reason: health.disabled_reason ?? 'disabled',
            since: new Date(health.disabled_at).toISOString(),
          },
        ]
      : [],
  };
}
