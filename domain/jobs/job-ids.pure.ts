/** The durable run of an import or bulk job: one per job row (the dashboard links it). */
export const contactJobWorkflowId = (jobId: string): string => `job-${jobId}`;
