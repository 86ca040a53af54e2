import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Project } from './project.entity.js';

/** A claimed Idempotency-Key; claimed in the transaction of the work, so a failure frees it. */
export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    project: () => p.manyToOne(Project).primary().deleteRule('cascade'),
    key: p.string().columnType('text').primary(),
    scope: p.string().columnType('text'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IdempotencyKey = InferEntity<typeof IdempotencyKey>;
