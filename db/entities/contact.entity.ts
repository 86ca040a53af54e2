import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { newId } from '../../domain/shared/ids.js';
import { Project } from './project.entity.js';

export const Contact = defineEntity({
  name: 'Contact',
  tableName: 'contacts',
  uniques: [{ properties: ['project', 'email'] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    // Trimmed and lower-cased before it is stored or looked up.
    email: p.string().columnType('text'),
    subscribed: p.boolean(),
    data: p.json<Record<string, unknown>>().default('{}'),
    // When `subscribed` last changed (or the contact was created); the upsert reads it back to
    // tell a subscription flip from a no-op in the same statement.
    subscriptionChangedAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type Contact = InferEntity<typeof Contact>;
