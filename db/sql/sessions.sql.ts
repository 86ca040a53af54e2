import type { Sql } from './sql.js';

export interface SessionRow {
  id: string;
  created_at: Date;
  last_seen_at: Date;
  user_agent: string | null;
}

/** Starts a session; the user's expired sessions are dropped on the way (they are few). */
export async function insertSession(
  sql: Sql,
  {
    id,
    userId,
    ttlSeconds,
    userAgent,
    ip,
  }: {
    id: string;
    userId: string;
    ttlSeconds: number;
    userAgent: string | null;
    ip: string | null;
  },
): Promise<void> {
  await sql.query(
    `WITH expired AS (DELETE FROM sessions WHERE user_id = $2 AND expires_at <= now())
     INSERT INTO sessions (id, user_id, expires_at, user_agent, ip)
     VALUES ($1, $2, now() + make_interval(secs => $3), $4, $5)`,
    [id, userId, ttlSeconds, userAgent, ip],
    'session-insert',
  );
}

/**
 * Whether the session is live for that user, in one statement by primary key, run on every
 * request with a session cookie. `last_seen_at` is written at most once per `touchSeconds`, so
 * most requests only read.
 */
export async function touchLiveSession(
  sql: Sql,
  { sessionId, userId, touchSeconds }: { sessionId: string; userId: string; touchSeconds: number },
): Promise<boolean> {
  const rows = await sql.query(
    `WITH touched AS (
       UPDATE sessions SET last_seen_at = now()
        WHERE id = $1 AND user_id = $2 AND expires_at > now()
          AND last_seen_at < now() - make_interval(secs => $3)
     )
     SELECT 1 FROM sessions WHERE id = $1 AND user_id = $2 AND expires_at > now()`,
    [sessionId, userId, touchSeconds],
    'session-live',
  );
  return rows.length > 0;
}

/** The user's live sessions, the most recently used first. */
export async function listLiveSessions(
  sql: Sql,
  { userId }: { userId: string },
): Promise<SessionRow[]> {
  return sql.query<SessionRow>(
    `SELECT id, created_at, last_seen_at, user_agent FROM sessions
      WHERE user_id = $1 AND expires_at > now()
      ORDER BY last_seen_at DESC, created_at DESC`,
    [userId],
  );
}

/** Ends one session of the user; answers whether there was one. */
export async function deleteSession(
  sql: Sql,
  { userId, sessionId }: { userId: string; sessionId: string },
): Promise<boolean> {
  const rows = await sql.query('DELETE FROM sessions WHERE id = $1 AND user_id = $2 RETURNING id', [
    sessionId,
    userId,
  ]);
  return rows.length > 0;
}

/** Ends every session of the user but `keepSessionId` (every one when it is null); answers how many. */
export async function deleteUserSessions(
  sql: Sql,
  { userId, keepSessionId }: { userId: string; keepSessionId: string | null },
): Promise<number> {
  const rows = await sql.query(
    `DELETE FROM sessions WHERE user_id = $1 AND ($2::uuid IS NULL OR id <> $2::uuid) RETURNING id`,
    [userId, keepSessionId],
  );
  return rows.length;
}
