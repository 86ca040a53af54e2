import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { newId } from '../../domain/shared/ids.js';
import { EMAIL_STATUSES } from '../../domain/sending/email-status.pure.js';
import { EMAIL_TYPES } from '../../domain/sending/email-type.pure.js';
import { Project } from './project.entity.js';

/** One row per email a project sends; delivery outcomes feed the security rates. */
export const Email = defineEntity({
  name: 'Email',
  tableName: 'emails',
  indexes: [{ properties: ['project', 'createdAt'] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    toAddress: p.string().columnType('text'),
    subject: p.string().columnType('text'),
    type: p.enum([...EMAIL_TYPES]),
    status: p.enum([...EMAIL_STATUSES]),
    sentAt: p.datetime().nullable(),
    bouncedAt: p.datetime().nullable(),
    complainedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Email = InferEntity<typeof Email>;
