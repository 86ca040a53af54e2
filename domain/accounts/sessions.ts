import jwt from 'jsonwebtoken';

export const SESSION_COOKIE = 'mw_session';
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;

/** The user and the session row a token names; a token without a session (sid) is refused. */
export interface SessionClaims {
  sub: string;
  sid: string;
}

export function issueSessionToken({
  userId,
  sessionId,
  secret,
}: {
  userId: string;
  sessionId: string;
  secret: string;
}): string {
  return jwt.sign({ sid: sessionId } satisfies Omit<SessionClaims, 'sub'>, secret, {
    subject: userId,
    expiresIn: SESSION_TTL_SECONDS,
    algorithm: 'HS256',
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The claims of a token signed with our key and unexpired; undefined otherwise. */
export function readSessionToken({
  token,
  secret,
}: {
  token: string;
  secret: string;
}): SessionClaims | undefined {
  try {
    const claims = jwt.verify(token, secret, { algorithms: ['HS256'] });
    if (typeof claims !== 'object' || typeof claims.sub !== 'string') return undefined;
    const sid = (claims as { sid?: unknown }).sid;
    if (typeof sid !== 'string' || !UUID.test(sid) || !UUID.test(claims.sub)) return undefined;
    return { sub: claims.sub, sid };
  } catch {
    return undefined;
  }
}
