import type { Sql } from './sql.js';

/**
 * Claims a project's Idempotency-Key unless it was claimed less than `windowHours` ago; answers
 * whether this call got it. Run in the transaction of the work it guards: a concurrent claim of
 * the same key waits on this row lock and then finds it taken.
 */
export async function claimIdempotencyKey(
  sql: Sql,
  {
    projectId,
    key,
    scope,
    windowHours,
  }: { projectId: string; key: string; scope: string; windowHours: number },
): Promise<boolean> {
  const claimed = await sql.query(
    `INSERT INTO idempotency_keys (project_id, key, scope, created_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (project_id, key) DO UPDATE SET scope = excluded.scope, created_at = now()
       WHERE idempotency_keys.created_at < now() - make_interval(hours => $4)
     RETURNING key`,
    [projectId, key, scope, windowHours],
    'idempotency-claim',
  );
  return claimed.length > 0;
}
