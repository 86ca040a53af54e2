import type { Em } from '../shared/ports.js';
import { getProject } from './projects.service.js';

export const SECURITY_WINDOW_DAYS = 30;
// Thresholds at which mailbox providers start to distrust a sender.
export const BOUNCE_RATE_WARNING = 0.05;
export const COMPLAINT_RATE_WARNING = 0.001;

export interface SecurityView {
  projectId: string;
  windowDays: number;
  sent: number;
  bounced: number;
  complained: number;
  bounceRate: number;
  complaintRate: number;
  status: 'HEALTHY' | 'WARNING' | 'SUSPENDED';
  disabled: boolean;
  suspensions: { reason: string; since: string }[];
}

/** Rates are fractions (0..1) of the emails that left in the window; zero when none did. */
export async function projectSecurity({
  em,
  projectId,
}: {
  em: Em;
  projectId: string;
}): Promise<SecurityView> {
  const project = await getProject({ em, projectId });
  const [row] = await em
    .getConnection()
    .execute<{ sent: string; bounced: string; complained: string }[]>(
      `SELECT count(*) FILTER (WHERE sent_at IS NOT NULL) AS sent,
            count(*) FILTER (WHERE bounced_at IS NOT NULL) AS bounced,
            count(*) FILTER (WHERE complained_at IS NOT NULL) AS complained
       FROM emails
      WHERE project_id = ? AND created_at > now() - make_interval(days => ?)`,
      [projectId, SECURITY_WINDOW_DAYS],
    );
  const sent = Number(row?.sent ?? 0);
  const bounced = Number(row?.bounced ?? 0);
  const complained = Number(row?.complained ?? 0);
  const bounceRate = sent > 0 ? bounced / sent : 0;
  const complaintRate = sent > 0 ? complained / sent : 0;
  const disabled = Boolean(project.disabledAt);
  const warning = bounceRate >= BOUNCE_RATE_WARNING || complaintRate >= COMPLAINT_RATE_WARNING;
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
    suspensions: project.disabledAt
      ? [{ reason: project.disabledReason ?? 'disabled', since: project.disabledAt.toISOString() }]
      : [],
  };
}
