import { Job, JobFile } from '../../db/entities/index.js';
import { notFound, unavailable } from '../shared/errors.js';
import type { Em, WorkflowEngine } from '../shared/ports.js';
import { emptyJobResult } from './job-result.pure.js';
import type { BulkJobType, JobType } from './job-type.pure.js';
import { toJobView, type JobView } from './job-view.js';

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const BULK_MAX_IDS = 1000;

/**
 * The job row (and its file) commit first, then the durable workflow starts. If Temporal cannot
 * take it, the job is marked FAILED and the caller told to retry: nothing is accepted that will
 * not run.
 */
async function commitAndStart(em: Em, engine: WorkflowEngine, job: Job): Promise<JobView> {
  await em.flush();
  try {
    await engine.startContactJob({ jobId: job.id, projectId: job.project.id });
  } catch {
    job.status = 'FAILED';
    job.finishedAt = new Date();
    job.result = { ...job.result, errors: [{ row: 0, message: 'The job could not be queued' }] };
    await em.flush();
    throw unavailable('The job could not be queued', 'Retry in a moment.');
  }
  return toJobView(job);
}

export async function createImportJob({
  em,
  engine,
  projectId,
  filename,
  content,
}: {
  em: Em;
  engine: WorkflowEngine;
  projectId: string;
  filename: string;
  content: Buffer;
}): Promise<JobView> {
  const job = em.create(Job, {
    project: projectId,
    type: 'IMPORT',
    status: 'QUEUED',
    input: { filename, size: content.length },
    result: emptyJobResult(),
  });
  em.create(JobFile, { job, filename, content, size: content.length });
  return commitAndStart(em, engine, job);
}

export async function createBulkJob({
  em,
  engine,
  projectId,
  type,
  contactIds,
}: {
  em: Em;
  engine: WorkflowEngine;
  projectId: string;
  type: BulkJobType;
  contactIds: string[];
}): Promise<JobView> {
  const ids = [...new Set(contactIds)];
  const job = em.create(Job, {
    project: projectId,
    type,
    status: 'QUEUED',
    input: { contactIds: ids },
    total: ids.length,
    result: emptyJobResult(),
  });
  return commitAndStart(em, engine, job);
}

/** A job of the project whose type is one of `types` (imports and bulk jobs have their own paths). */
export async function getJob({
  em,
  projectId,
  jobId,
  types,
}: {
  em: Em;
  projectId: string;
  jobId: string;
  types: readonly JobType[];
}): Promise<JobView> {
  const job = await em.findOne(Job, { id: jobId, project: projectId });
  if (!job || !types.includes(job.type)) throw notFound('Job');
  return toJobView(job);
}
