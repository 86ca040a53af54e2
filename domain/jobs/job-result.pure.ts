/** What a job did, counted in the same transaction as the work (first 100 row errors kept). */
export interface JobResult {
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  /** Bulk deletes count the contacts they removed. */
  deleted?: number;
  errors: { row: number; message: string }[];
}

export const MAX_REPORTED_JOB_ERRORS = 100;

export const emptyJobResult = (): JobResult => ({
  created: 0,
  updated: 0,
  skipped: 0,
  failed: 0,
  errors: [],
});
