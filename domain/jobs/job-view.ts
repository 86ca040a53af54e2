import type { Job, JobResult } from '../../db/entities/job.entity.js';

export interface JobView {
  id: string;
  type: Job['type'];
  status: Job['status'];
  progress: { processed: number; total: number | null };
  result: JobResult & { deleted?: number };
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
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
  };
}

export const emptyResult = (): JobResult => ({
  created: 0,
  updated: 0,
  skipped: 0,
  failed: 0,
  errors: [],
});
