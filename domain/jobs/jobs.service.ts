import { Job } from '../../db/entities/index.js';
import { failJob, insertImportJob } from '../../db/sql/jobs.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { notFound, unavailable } from '../shared/errors.js';
import type { Em, WorkflowEngine } from '../shared/ports.js';
import { newId } from '../shared/ids.js';
import { emptyJobResult } from './job-result.pure.js';
import type { BulkJobType, JobType } from './job-type.pure.js';
import { toJobView, type JobView } from './job-view.js';

const JOB_NOT_QUEUED = 'The job could not be queued';

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const BULK_MAX_IDS = 1000;

/**
 * The job row commits first, then the durable workflow starts. If Temporal cannot
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
    job.result = { ...job.result, errors: [{ row: 0, message: JOB_NOT_QUEUED }] };
    await em.flush();
    throw unavailable(JOB_NOT_QUEUED, 'Retry in a moment.');
  }
  return toJobView(job);
}

/**
 * The job and its file commit together (one statement), then the durable workflow starts; if
 * Temporal cannot take it, the job is marked FAILED and the caller told to retry.
 */
export async function createImportJob({
  sql,
  engine,
  projectId,
  filename,
  content,
}: {
  sql: Sql;
  engine: WorkflowEngine;
  projectId: string;
  filename: string;
  content: Buffer;
}): Promise<Pick<JobView, 'id' | 'status'>> {
  const id = newId();
  await insertImportJob(sql, {
    id,
    projectId,
    input: { filename, size: content.length },
    result: emptyJobResult(),
    filename,
    content,
  });
  try {
    await engine.startContactJob({ jobId: id, projectId });
  } catch {
    await failJob(sql, { jobId: id, message: JOB_NOT_QUEUED });
    throw unavailable(JOB_NOT_QUEUED, 'Retry in a moment.');
  }
  return { id, status: 'QUEUED' };
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
