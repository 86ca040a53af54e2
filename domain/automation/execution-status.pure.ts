/**
 * RUNNING (a step is being run), WAITING (on a DELAY or WAIT_FOR_EVENT), then one of the ends:
 * COMPLETED (the path ran out), EXITED (an EXIT step), FAILED, CANCELLED.
 */
export const EXECUTION_STATUSES = [
  'RUNNING',
  'WAITING',
  'COMPLETED',
  'EXITED',
  'FAILED',
  'CANCELLED',
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** An execution in one of these may still run steps and receive events. */
export const ACTIVE_EXECUTION_STATUSES = [
  'RUNNING',
  'WAITING',
] as const satisfies readonly ExecutionStatus[];
export type ActiveExecutionStatus = (typeof ACTIVE_EXECUTION_STATUSES)[number];

export type FinalExecutionStatus = Exclude<ExecutionStatus, ActiveExecutionStatus>;

/** What became of one step of an execution. */
export const STEP_RUN_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type StepRunStatus = (typeof STEP_RUN_STATUSES)[number];
