import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { newId } from '../../domain/shared/ids.js';

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    email: p.string().columnType('text').unique(),
    passwordHash: p.string().columnType('text').hidden(),
    name: p.string().columnType('text').nullable(),
    emailVerifiedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type User = InferEntity<typeof User>;
