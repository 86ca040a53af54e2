import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  countDeliveryReports,
  findDeliveryReport,
  listDeliveryReportRows,
  type DeliveryReportRow,
} from '../../db/sql/delivery-reports.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { notFound, requireFound } from '../shared/errors.js';
import { newestFirstPage, type CursorPage, type PageRequest } from '../shared/pagination.js';
import type { ReportFormat, ReportOutcome } from './report-reading.pure.js';

/** Where the raw messages of reports are kept (DATA_DIR). */
export interface ReportSettings {
  sql: Sql;
  dataDir: string;
}

export interface DeliveryReportView {
  id: string;
  /** The email the report's return path names; null when it names none of the project's. */
  emailId: string | null;
  /** That email's recipient, the address the report is about. */
  emailTo: string | null;
  /** The return-path address the report was sent to. */
  recipient: string;
  format: ReportFormat;
  outcome: ReportOutcome;
  reason: string | null;
  /** The raw message's path under DATA_DIR, as inbound mail's `storageKey`. */
  storageKey: string;
  /** Where the API serves the raw message. */
  rawUrl: string;
  createdAt: string;
}

const toView = (row: DeliveryReportRow): DeliveryReportView => ({
  id: row.id,
  emailId: row.email_id,
  emailTo: row.email_to,
  recipient: row.recipient,
  format: row.format,
  outcome: row.outcome,
  reason: row.reason,
  storageKey: row.storage_key,
  rawUrl: `/delivery-reports/${row.id}/raw`,
  createdAt: new Date(row.created_at).toISOString(),
});

/** The project's delivery reports, newest first, optionally of one outcome. */
export async function listDeliveryReports({
  sql,
  projectId,
  outcome,
  ...page
}: PageRequest & {
  sql: Sql;
  projectId: string;
  outcome?: ReportOutcome;
}): Promise<CursorPage<DeliveryReportView>> {
  return newestFirstPage(page, {
    rows: ({ afterId, limit }) =>
      listDeliveryReportRows(sql, { projectId, outcome, afterId, limit }),
    count: () => countDeliveryReports(sql, { projectId, outcome }),
    view: toView,
  });
}

async function requireReport(
  sql: Sql,
  ids: { projectId: string; reportId: string },
): Promise<DeliveryReportRow> {
  return requireFound(await findDeliveryReport(sql, ids), 'Delivery report');
}

/** One of the project's reports; 404 for another project's. */
export async function getDeliveryReport({
  sql,
  projectId,
  reportId,
}: {
  sql: Sql;
  projectId: string;
  reportId: string;
}): Promise<DeliveryReportView> {
  return toView(await requireReport(sql, { projectId, reportId }));
}

/** The message a report arrived as, byte for byte; 404 when its file is gone. */
export async function readDeliveryReportMessage({
  sql,
  dataDir,
  projectId,
  reportId,
}: ReportSettings & { projectId: string; reportId: string }): Promise<{
  id: string;
  raw: Buffer;
}> {
  const row = await requireReport(sql, { projectId, reportId });
  try {
    return { id: row.id, raw: await readFile(path.join(dataDir, row.storage_key)) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('Report message');
    throw error;
  }
}

/**
 * Removes the raw messages of a project's reports (DATA_DIR/reports/<project>), after a reset
 * or deletion has removed their rows.
 */
export async function removeReportMessages({
  dataDir,
  projectId,
}: {
  dataDir: string;
  projectId: string;
}): Promise<void> {
  await rm(path.join(dataDir, 'reports', projectId), { recursive: true, force: true });
}
