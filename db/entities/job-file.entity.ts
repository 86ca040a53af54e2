import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Job } from './job.entity.js';

/**
 * An uploaded import file, kept in PostgreSQL so any worker can (re)read it after a restart; it
 * goes with its job.
 */
export const JobFile = defineEntity({
  name: 'JobFile',
  tableName: 'job_files',
  properties: {
    job: () => p.oneToOne(Job).primary().owner().deleteRule('cascade'),
    filename: p.string().columnType('text'),
    content: p.blob(),
    size: p.integer(),
  },
});
export type JobFile = InferEntity<typeof JobFile>;
