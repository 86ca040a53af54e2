import { insertEvent } from '../../db/sql/events.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import {
  countSuppressions,
  deleteSuppression,
  listSuppressionRows,
  type SuppressionRow,
} from '../../db/sql/suppressions.sql.js';
import { normaliseEmail } from '../contacts/data-rules.pure.js';
import { notFound } from '../shared/errors.js';
import {
  cursorPage,
  decodeCursor,
  type CursorPage,
  type PageRequest,
} from '../shared/pagination.js';
import type { SuppressionReason } from './bounce-policy.pure.js';

/** The service's event on a contact whose address was taken off the suppression list. */
export const SUPPRESSION_LIFTED_EVENT = 'email.suppression_lifted';

export interface SuppressionView {
  email: string;
  reason: SuppressionReason;
  createdAt: string;
  /** Where the bounce or complaint was learnt (relay, dsn, arf, ses, webhook); null before. */
  source: string | null;
  /** The evidence: the SMTP code, enhanced status and diagnostic words, where there were. */
  detail: Record<string, unknown> | null;
  emailId: string | null;
}

const toView = (row: SuppressionRow): SuppressionView => ({
  email: row.email,
  reason: row.reason,
  createdAt: new Date(row.created_at).toISOString(),
  source: row.source,
  detail: row.detail,
  emailId: row.email_id,
});

/** The project's suppression list, newest first, optionally of one reason. */
export async function listSuppressions({
  sql,
  projectId,
  reason,
  limit,
  cursor,
}: PageRequest & {
  sql: Sql;
  projectId: string;
  reason?: SuppressionReason;
}): Promise<CursorPage<SuppressionView>> {
  const position = cursor ? decodeCursor(cursor) : undefined;
  const [rows, total] = await Promise.all([
    listSuppressionRows(sql, {
      projectId,
      reason,
      after: position ? { createdAt: String(position.sort), id: position.id } : undefined,
      limit,
    }),
    cursor ? undefined : countSuppressions(sql, { projectId, reason }),
  ]);
  const page = cursorPage({
    rows,
    limit,
    total,
    positionOf: (row) => ({ sort: new Date(row.created_at).toISOString(), id: row.id }),
  });
  return { ...page, data: page.data.map(toView) };
}

/**
 * Takes an address off the suppression list, so mail to it goes out again; recorded as
 * `email.suppression_lifted` on its contact. 404 when it was not suppressed.
 */
export async function liftSuppression(lift: {
  sql: Sql;
  projectId: string;
  email: string;
}): Promise<SuppressionView> {
  const { sql, projectId } = lift;
  const address = normaliseEmail(lift.email);
  return sql.transaction(async (tx) => {
    const row = await deleteSuppression(tx, { projectId, email: address });
    if (!row) throw notFound('Suppression');
    if (row.contact_id) {
      await insertEvent(tx, {
        projectId,
        contactId: row.contact_id,
        name: SUPPRESSION_LIFTED_EVENT,
        data: { reason: row.reason, suppressedAt: new Date(row.created_at).toISOString() },
      });
    }
    return toView(row);
  });
}
