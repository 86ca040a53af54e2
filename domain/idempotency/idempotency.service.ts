import { claimIdempotencyKey } from '../../db/sql/idempotency-keys.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { DomainError } from '../shared/errors.js';

export const IDEMPOTENCY_WINDOW_HOURS = 24;

/**
 * Runs `work` in a transaction that first claims the project's Idempotency-Key. The claim commits
 * with the work or not at all: a request that failed (4xx or otherwise) leaves the key free for a
 * retry; a key claimed less than 24 hours ago is refused with 409 IDEMPOTENCY_KEY_REUSED. A
 * concurrent request with the same key waits on the claim's row lock and is then refused.
 * Without a key, `work` runs as it is.
 */
export async function withIdempotencyKey<T>(
  {
    sql,
    projectId,
    key,
    scope,
  }: { sql: Sql; projectId: string; key: string | undefined; scope: string },
  work: (sql: Sql) => Promise<T>,
): Promise<T> {
  if (key === undefined) return work(sql);
  return sql.transaction(async (tx) => {
    const claimed = await claimIdempotencyKey(tx, {
      projectId,
      key,
      scope,
      windowHours: IDEMPOTENCY_WINDOW_HOURS,
    });
    if (!claimed) {
      throw new DomainError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used', {
        suggestion: 'Use a new key for a new request; a key can be reused after 24 hours.',
      });
    }
    return work(tx);
  });
}
