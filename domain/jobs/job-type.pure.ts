/** Bulk jobs act on up to 1,000 contact ids; an import reads a CSV file. */
export const BULK_JOB_TYPES = ['BULK_SUBSCRIBE', 'BULK_UNSUBSCRIBE', 'BULK_DELETE'] as const;
export type BulkJobType = (typeof BULK_JOB_TYPES)[number];

export const IMPORT_JOB_TYPES = ['IMPORT'] as const;

export const JOB_TYPES = [...IMPORT_JOB_TYPES, ...BULK_JOB_TYPES] as const;
export type JobType = (typeof JOB_TYPES)[number];
