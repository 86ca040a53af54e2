import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { newId } from '../../domain/shared/ids.js';
import { AUTH_TOKEN_PURPOSES } from '../../domain/accounts/auth-token-purpose.pure.js';
import { User } from './user.entity.js';

export const AuthToken = defineEntity({
  name: 'AuthToken',
  tableName: 'auth_tokens',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    purpose: p.enum([...AUTH_TOKEN_PURPOSES]),
    // Only the SHA-256 of the token is kept; the token itself lives in the email link.
    tokenHash: p.string().columnType('text').unique(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type AuthToken = InferEntity<typeof AuthToken>;
