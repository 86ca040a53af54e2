import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { newId } from '../../domain/shared/ids.js';
import { Project } from './project.entity.js';

export const EMAIL_STATUSES = [
  'QUEUED',
  'SENT',
  'DELIVERED',
  'BOUNCED',
  'FAILED',
  'SUPPRESSED',
] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
export const EMAIL_TYPES = ['TRANSACTIONAL', 'MARKETING'] as const;

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
