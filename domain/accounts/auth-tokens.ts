import { AuthToken, type AuthTokenPurpose } from '../../db/entities/auth-token.entity.js';
import { DomainError } from '../shared/errors.js';
import type { Em } from '../shared/ports.js';
import { randomToken, sha256 } from '../shared/secrets.js';

export const TOKEN_TTL_MS: Record<AuthTokenPurpose, number> = {
  VERIFY_EMAIL: 24 * 3600 * 1000,
  RESET_PASSWORD: 3600 * 1000,
};

/**
 * Issues a fresh single-use token and retires the user's earlier unused ones of the same purpose,
 * so only the newest link works. Only the token's hash is stored.
 */
export async function issueAuthToken({
  em,
  userId,
  purpose,
  now = new Date(),
}: {
  em: Em;
  userId: string;
  purpose: AuthTokenPurpose;
  now?: Date;
}): Promise<string> {
  const token = randomToken();
  await em.transactional(async (tx) => {
    await tx
      .getConnection()
      .execute(
        'UPDATE auth_tokens SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL',
        [now, userId, purpose],
        'run',
        tx.getTransactionContext(),
      );
    tx.create(AuthToken, {
      user: userId,
      purpose,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[purpose]),
    });
  });
  return token;
}

/** Marks the token used in the same statement that checks it: two concurrent uses, one wins. */
export async function consumeAuthToken({
  em,
  token,
  purpose,
}: {
  em: Em;
  token: string;
  purpose: AuthTokenPurpose;
}): Promise<string> {
  const rows = await em.getConnection().execute<{ user_id: string }[]>(
    `UPDATE auth_tokens SET used_at = now()
        WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > now()
        RETURNING user_id`,
    [sha256(token), purpose],
  );
  const userId = rows[0]?.user_id;
  if (!userId) {
    throw new DomainError('BAD_REQUEST', 'This link is invalid, expired or already used', {
      suggestion: 'Request a new email and use the newest link.',
    });
  }
  return userId;
}
