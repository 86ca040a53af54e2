import type { ReportFormat, ReportOutcome } from '../../domain/inbound/report-reading.pure.js';
import type { Sql } from './sql.js';
import { countProjectRows } from './rows.js';

/** The project whose verified domain is exactly `domain` (a return-path host's parent). */
export async function findReturnPathProject(
  sql: Sql,
  { domain }: { domain: string },
): Promise<string | undefined> {
  const [row] = await sql.query<{ project_id: string }>(
    `SELECT project_id FROM domains WHERE status = 'VERIFIED' AND domain = $1`,
    [domain],
    'return-path-project',
  );
  return row?.project_id;
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
    'delivery-report-insert',
  );
}

export interface DeliveryReportRow {
  id: string;
  email_id: string | null;
  /** The recipient of the email the report is about, when it names one of the project's. */
  email_to: string | null;
  recipient: string;
  format: ReportFormat;
  outcome: ReportOutcome;
  reason: string | null;
  storage_key: string;
  created_at: Date;
}

const REPORT_COLUMNS = `r.id, r.email_id, e.to_address AS email_to, r.recipient, r.format, r.outcome,
  r.reason, r.storage_key, r.created_at`;

/** A page of the project's reports, newest first (ids are time-ordered): `limit + 1` rows. */
export async function listDeliveryReportRows(
  sql: Sql,
  {
    projectId,
    outcome,
    afterId,
    limit,
  }: { projectId: string; outcome?: ReportOutcome; afterId?: string; limit: number },
): Promise<DeliveryReportRow[]> {
  return sql.query<DeliveryReportRow>(
    `SELECT ${REPORT_COLUMNS}
       FROM delivery_reports r LEFT JOIN emails e ON e.id = r.email_id
      WHERE r.project_id = $1 AND ($2::text IS NULL OR r.outcome = $2)
        AND ($3::uuid IS NULL OR r.id < $3::uuid)
      ORDER BY r.id DESC
      LIMIT $4`,
    [projectId, outcome ?? null, afterId ?? null, limit + 1],
  );
}

export const countDeliveryReports = (
  sql: Sql,
  { projectId, outcome }: { projectId: string; outcome?: ReportOutcome },
): Promise<number> =>
  countProjectRows(
    sql,
    { table: 'delivery_reports', column: 'outcome' },
    { projectId, value: outcome },
  );

/** One of the project's reports; undefined for another project's or an unknown id. */
export async function findDeliveryReport(
  sql: Sql,
  { projectId, reportId }: { projectId: string; reportId: string },
): Promise<DeliveryReportRow | undefined> {
  const [row] = await sql.query<DeliveryReportRow>(
    `SELECT ${REPORT_COLUMNS}
       FROM delivery_reports r LEFT JOIN emails e ON e.id = r.email_id
      WHERE r.id = $1 AND r.project_id = $2`,
    [reportId, projectId],
  );
  return row;
}
