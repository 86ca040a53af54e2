import jwt from 'jsonwebtoken';

export const SESSION_COOKIE = 'mw_session';
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;

interface SessionClaims {
  sub: string;
  ver: number;
}

export function issueSessionToken({
  userId,
  sessionVersion,
  secret,
}: {
  userId: string;
  sessionVersion: number;
  secret: string;
}): string {
  return jwt.sign({ ver: sessionVersion } satisfies Omit<SessionClaims, 'sub'>, secret, {
    subject: userId,
    expiresIn: SESSION_TTL_SECONDS,
    algorithm: 'HS256',
  });
}

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
    const ver = (claims as { ver?: unknown }).ver;
    return { sub: claims.sub, ver: typeof ver === 'number' ? ver : -1 };
  } catch {
    return undefined;
  }
}
