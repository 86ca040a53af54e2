import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { newId } from '../../domain/shared/ids.js';
import { Project } from './project.entity.js';

export const JOB_TYPES = ['IMPORT', 'BULK_SUBSCRIBE', 'BULK_UNSUBSCRIBE', 'BULK_DELETE'] as const;
export type JobType = (typeof JOB_TYPES)[number];
export const JOB_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobResult {
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  errors: { row: number; message: string }[];
}

/** An import or bulk job. Its progress is written in the same transaction as the work it counts. */
export const Job = defineEntity({
  name: 'Job',
  tableName: 'jobs',
  indexes: [{ properties: ['project', 'createdAt'] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    type: p.enum([...JOB_TYPES]),
    status: p.enum([...JOB_STATUSES]),
    input: p.json<Record<string, unknown>>().default('{}'),
    processed: p.integer().default(0),
    total: p.integer().nullable(),
    result: p.json<JobResult>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
  },
});
export type Job = InferEntity<typeof Job>;
