import type { Sql } from './sql.js';

export interface AttemptCountRow {
  bucket: string;
  attempts: number;
  /** Seconds since the oldest attempt still inside the bucket's window (0 when none). */
  oldest_age_seconds: number;
}

/** The attempts of each bucket within its own window, in one statement. */
export async function countRecentAttempts(
  sql: Sql,
  { buckets }: { buckets: { key: string; windowSeconds: number }[] },
): Promise<AttemptCountRow[]> {
  return sql.query<AttemptCountRow>(
    `SELECT b.key AS bucket, count(a.id)::int AS attempts,
            coalesce(extract(epoch FROM now() - min(a.at)), 0)::float8 AS oldest_age_seconds
       FROM unnest($1::text[], $2::int[]) AS b(key, window_seconds)
       LEFT JOIN auth_attempts a
         ON a.bucket = b.key AND a.at > now() - make_interval(secs => b.window_seconds)
      GROUP BY b.key`,
    [buckets.map((b) => b.key), buckets.map((b) => b.windowSeconds)],
    'auth-attempts-count',
  );
}

/** Records one attempt in each bucket, and drops attempts older than any window. */
export async function recordAttempts(
  sql: Sql,
  { buckets, keepSeconds }: { buckets: string[]; keepSeconds: number },
): Promise<void> {
  await sql.query(
    `WITH pruned AS (DELETE FROM auth_attempts WHERE at < now() - make_interval(secs => $2))
     INSERT INTO auth_attempts (bucket) SELECT unnest($1::text[])`,
    [buckets, keepSeconds],
    'auth-attempts-record',
  );
}

/** Forgets a bucket's attempts (a successful login clears its account's failures). */
export async function clearAttempts(sql: Sql, { bucket }: { bucket: string }): Promise<void> {
  await sql.query('DELETE FROM auth_attempts WHERE bucket = $1', [bucket]);
}
