import type { ReportFormat, ReportOutcome } from '../../domain/inbound/report-reading.pure.js';
import type { Sql } from './sql.js';

/** The project whose verified domain is exactly `domain` (a return-path host's parent). */
export async function findReturnPathProject(
  sql: Sql,
  { domain }: { domain: string },
): Promise<string | undefined> {
  const [row] = await sql.query<{ project_id: string }>(
    `SELECT project_id FROM domains WHERE status = 'VERIFIED' AND domain = $1`,
    [domain],
  );
  return row?.project_id;
}

/** The recipient of a project's email, when the email is the project's. */
export async function findReportedEmail(
  sql: Sql,
  { projectId, emailId }: { projectId: string; emailId: string },
): Promise<{ to_address: string } | undefined> {
  const [row] = await sql.query<{ to_address: string }>(
    'SELECT to_address FROM emails WHERE id = $1 AND project_id = $2',
    [emailId, projectId],
  );
  return row;
}

export async function insertDeliveryReport(
  sql: Sql,
  report: {
    id: string;
    projectId: string;
    emailId: string | null;
    recipient: string;
    format: ReportFormat;
    outcome: ReportOutcome;
    reason: string | null;
    storageKey: string;
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO delivery_reports
       (id, project_id, email_id, recipient, format, outcome, reason, storage_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      report.id,
      report.projectId,
      report.emailId,
      report.recipient,
      report.format,
      report.outcome,
      report.reason,
      report.storageKey,
    ],
  );
}
