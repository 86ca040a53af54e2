import { AuthToken } from '../../db/entities/auth-token.entity.js';
import { DomainError } from '../shared/errors.js';
import type { Em } from '../shared/ports.js';
import { randomToken, sha256 } from '../shared/secrets.js';
import type { AuthTokenPurpose } from './auth-token-purpose.pure.js';

export const TOKEN_TTL_MS: Record<AuthTokenPurpose, number> = {
  VERIFY_EMAIL: 24 * 3600 * 1000,
  RESET_PASSWORD: 3600 * 1000,
};

/** What each use of a token is given (`now` for tests). */
interface TokenUse {
  em: Em;
  purpose: AuthTokenPurpose;
  now?: Date;
}

/**
 * Issues a fresh single-use token and retires the user's earlier unused ones of the same purpose,
 * so only the newest link works. Only the token's hash is stored.
 */
export async function issueAuthToken(use: TokenUse & { userId: string }): Promise<string> {
  const { em, userId, purpose, now = new Date() } = use;
  const token = randomToken();
  await em.transactional(async (tx) => {
    await tx.nativeUpdate(AuthToken, { user: userId, purpose, usedAt: null }, { usedAt: now });
    tx.create(AuthToken, {
      user: userId,
      purpose,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[purpose]),
    });
  });
  return token;
}

/** Marks the token used in the statement that checks it: of two concurrent uses, one wins. */
export async function consumeAuthToken({
  em,
  token,
  purpose,
  now = new Date(),
}: TokenUse & { token: string }): Promise<string> {
  const tokenHash = sha256(token);
  const used = await em.nativeUpdate(
    AuthToken,
    { tokenHash, purpose, usedAt: null, expiresAt: { $gt: now } },
    { usedAt: now },
  );
  const record = used === 1 ? await em.findOne(AuthToken, { tokenHash }) : null;
  if (!record) {
    throw new DomainError('BAD_REQUEST', 'This link is invalid, expired or already used', {
      suggestion: 'Request a new email and use the newest link.',
    });
  }
  return record.user.id;
}
