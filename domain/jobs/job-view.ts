import type { Job } from '../../db/entities/job.entity.js';
import { contactJobWorkflowId } from './job-ids.pure.js';
import type { JobResult } from './job-result.pure.js';
import type { JobStatus } from './job-status.pure.js';
import type { JobType } from './job-type.pure.js';

export interface JobView {
  id: string;
  type: JobType;
  status: JobStatus;
  progress: { processed: number; total: number | null };
  result: JobResult;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** The Temporal workflow that runs the job. */
  workflowId: string;
}

export function toJobView(job: Job): JobView {
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    progress: { processed: job.processed, total: job.total ?? null },
    result: job.result,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt ? job.startedAt.toISOString() : null,
    finishedAt: job.finishedAt ? job.finishedAt.toISOString() : null,
    workflowId: contactJobWorkflowId(job.id),
  };
}
