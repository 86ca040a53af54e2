import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { newId } from '../../domain/shared/ids.js';
import { EMAIL_TYPES } from '../../domain/sending/email-type.pure.js';
import { Project } from './project.entity.js';

export const Template = defineEntity({
  name: 'Template',
  tableName: 'templates',
  indexes: [{ properties: ['project', 'id'] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    name: p.string().columnType('text'),
    subject: p.string().columnType('text'),
    body: p.string().columnType('text'),
    type: p.enum([...EMAIL_TYPES]),
    from: p.string().columnType('text').fieldName('from_address'),
    fromName: p.string().columnType('text').nullable(),
    replyTo: p.string().columnType('text').nullable(),
    // Null: the project's setting decides (see domain/tracking/tracking-choice.pure.ts).
    openTracking: p.boolean().nullable(),
    clickTracking: p.boolean().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type Template = InferEntity<typeof Template>;
