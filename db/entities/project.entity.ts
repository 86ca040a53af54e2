import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { ProjectSettings } from '../../domain/projects/project-settings.pure.js';
import { newId } from '../../domain/shared/ids.js';

export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.string().columnType('text'),
    // The public key is public by design and stored as is.
    publicKey: p.string().columnType('text').unique(),
    // The secret key is stored only as its SHA-256; `secretKeyHint` keeps its last characters.
    secretKeyHash: p.string().columnType('text').unique().hidden(),
    secretKeyHint: p.string().columnType('text'),
    settings: p.json<ProjectSettings>().default('{}'),
    disabledAt: p.datetime().nullable(),
    disabledReason: p.string().columnType('text').nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type Project = InferEntity<typeof Project>;
