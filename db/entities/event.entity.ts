import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { newId } from '../../domain/shared/ids.js';
import { Contact } from './contact.entity.js';
import { Project } from './project.entity.js';

/**
 * A tracked or service-emitted event (a trigger also puts it in the automation's outbox). The
 * service's events of the whole project (`billing.limit_warning`) have no contact.
 */
export const Event = defineEntity({
  name: 'Event',
  tableName: 'events',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    contact: () => p.manyToOne(Contact).deleteRule('cascade').nullable(),
    name: p.string().columnType('text'),
    data: p.json<Record<string, unknown>>().default('{}'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Event = InferEntity<typeof Event>;
