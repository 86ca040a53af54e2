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

/** Lifts an address's suppression; undefined when it had none. */
export async function deleteSuppression(
  sql: Sql,
  { projectId, email }: { projectId: string; email: string },
): Promise<SuppressionRow | undefined> {
  const [row] = await sql.query<SuppressionRow>(
    `DELETE FROM suppressions WHERE project_id = $1 AND email = $2 RETURNING ${COLUMNS}`,
    [projectId, email],
  );
  return row;
}

/** The contact of an address in the project, if there is one. */
export async function findContactIdByEmail(
  sql: Sql,
  { projectId, email }: { projectId: string; email: string },
): Promise<string | undefined> {
  const [row] = await sql.query<{ id: string }>(
    'SELECT id FROM contacts WHERE project_id = $1 AND email = $2',
    [projectId, email],
  );
  return row?.id;
}
