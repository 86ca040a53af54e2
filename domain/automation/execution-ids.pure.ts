/** The durable run of an execution: one per execution row, its id reuse rejected. */
export const executionWorkflowId = (executionId: string): string => `execution-${executionId}`;
