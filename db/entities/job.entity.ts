import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { newId } from '../../domain/shared/ids.js';
import { JOB_STATUSES } from '../../domain/jobs/job-status.pure.js';
import { JOB_TYPES } from '../../domain/jobs/job-type.pure.js';
import type { JobResult } from '../../domain/jobs/job-result.pure.js';
import { Project } from './project.entity.js';

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
