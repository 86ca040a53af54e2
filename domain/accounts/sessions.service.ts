import {
  deleteSession,
  deleteUserSessions,
  insertSession,
  listLiveSessions,
  touchLiveSession,
} from '../../db/sql/sessions.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { ClientInfo } from './auth-throttle.service.js';
import { issueSessionToken, readSessionToken, SESSION_TTL_SECONDS } from './sessions.js';

/** A session's last-seen time is written at most this often, so most requests only read. */
export const LAST_SEEN_RESOLUTION_SECONDS = 60;
/** Longer user agents are cut (a header can be kilobytes; the list needs a line). */
export const USER_AGENT_MAX_LENGTH = 256;

/** One live session, as the account page lists it. */
export interface SessionView {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  /** The session of the request that lists them. */
  current: boolean;
}

/** The session a request acts in: a live row of that user in PostgreSQL, seen by every replica. */
export interface LiveSession {
  userId: string;
  sessionId: string;
}

/** Starts a session row and answers the token naming it (the cookie's value). */
export async function startSession({
  sql,
  sessionSecret,
  userId,
  client,
}: {
  sql: Sql;
  sessionSecret: string;
  userId: string;
  client: ClientInfo;
}): Promise<string> {
  const sessionId = newId();
  await insertSession(sql, {
    id: sessionId,
    userId,
    ttlSeconds: SESSION_TTL_SECONDS,
    userAgent: client.userAgent ? client.userAgent.slice(0, USER_AGENT_MAX_LENGTH) : null,
    ip: client.ip ? client.ip.slice(0, 64) : null,
  });
  return issueSessionToken({ userId, sessionId, secret: sessionSecret });
}

/** The session a token names when it is signed with our key, unexpired, and not ended. */
export async function findLiveSession({
  sql,
  sessionSecret,
  token,
}: {
  sql: Sql;
  sessionSecret: string;
  token: string;
}): Promise<LiveSession | undefined> {
  const claims = readSessionToken({ token, secret: sessionSecret });
  if (!claims) return undefined;
  const live = await touchLiveSession(sql, {
    sessionId: claims.sid,
    userId: claims.sub,
    touchSeconds: LAST_SEEN_RESOLUTION_SECONDS,
  });
  return live ? { userId: claims.sub, sessionId: claims.sid } : undefined;
}

/** Logging out: ends the session the token names (nothing when it names none). */
export async function endSessionOfToken({
  sql,
  sessionSecret,
  token,
}: {
  sql: Sql;
  sessionSecret: string;
  token: string | undefined;
}): Promise<void> {
  const claims = token ? readSessionToken({ token, secret: sessionSecret }) : undefined;
  if (claims) await deleteSession(sql, { userId: claims.sub, sessionId: claims.sid });
}

export async function listSessions({
  sql,
  session,
}: {
  sql: Sql;
  session: LiveSession;
}): Promise<SessionView[]> {
  const rows = await listLiveSessions(sql, { userId: session.userId });
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.created_at.toISOString(),
    lastSeenAt: r.last_seen_at.toISOString(),
    userAgent: r.user_agent,
    current: r.id === session.sessionId,
  }));
}

/** Ends one of the user's sessions; another user's (or an unknown) session is 404. */
export async function revokeSession({
  sql,
  userId,
  sessionId,
}: {
  sql: Sql;
  userId: string;
  sessionId: string;
}): Promise<void> {
  if (!(await deleteSession(sql, { userId, sessionId }))) throw notFound('Session');
}

/** "Log out everywhere else": every session of the user but the current one ends. */
export async function revokeOtherSessions({
  sql,
  session,
}: {
  sql: Sql;
  session: LiveSession;
}): Promise<{ revoked: number }> {
  const revoked = await deleteUserSessions(sql, {
    userId: session.userId,
    keepSessionId: session.sessionId,
  });
  return { revoked };
}
