import type { SuppressionReason } from '../../domain/sending/bounce-policy.pure.js';
import type { Sql } from './sql.js';
import { countProjectRows } from './rows.js';

export interface SuppressionRow {
  id: string;
  email: string;
  reason: SuppressionReason;
  created_at: Date;
  source: string | null;
  detail: Record<string, unknown> | null;
  email_id: string | null;
}

const COLUMNS = 'id, email, reason, created_at, source, detail, email_id';

/** A page of the project's suppressions, newest first: `limit + 1` rows after `after`. */
export async function listSuppressionRows(
  sql: Sql,
  {
    projectId,
    reason,
    after,
    limit,
  }: {
    projectId: string;
    reason?: SuppressionReason;
    after?: { createdAt: string; id: string };
    limit: number;
  },
): Promise<SuppressionRow[]> {
  return sql.query<SuppressionRow>(
    `SELECT ${COLUMNS} FROM suppressions
      WHERE project_id = $1 AND ($2::text IS NULL OR reason = $2)
        AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $5`,
    [projectId, reason ?? null, after?.createdAt ?? null, after?.id ?? null, limit + 1],
  );
}

export const countSuppressions = (
  sql: Sql,
  { projectId, reason }: { projectId: string; reason?: SuppressionReason },
): Promise<number> =>
  countProjectRows(sql, { table: 'suppressions', column: 'reason' }, { projectId, value: reason });

/**
 * Lifts an address's suppression, answering it with the address's contact (null when it has
 * none); undefined when it had none.
 */
export async function deleteSuppression(
  sql: Sql,
  { projectId, email }: { projectId: string; email: string },
): Promise<(SuppressionRow & { contact_id: string | null }) | undefined> {
  const [row] = await sql.query<SuppressionRow & { contact_id: string | null }>(
    `DELETE FROM suppressions WHERE project_id = $1 AND email = $2
     RETURNING ${COLUMNS},
       (SELECT c.id FROM contacts c WHERE c.project_id = $1 AND c.email = $2) AS contact_id`,
    [projectId, email],
  );
  return row;
}
