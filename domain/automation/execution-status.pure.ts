/**
 * An execution in one of these may still run steps and receive events: RUNNING (a step is being
 * run), WAITING (on a DELAY or WAIT_FOR_EVENT).
 */
export const ACTIVE_EXECUTION_STATUSES = ['RUNNING', 'WAITING'] as const;
export type ActiveExecutionStatus = (typeof ACTIVE_EXECUTION_STATUSES)[number];

/** The ends: COMPLETED (the path ran out), EXITED (an EXIT step), FAILED, CANCELLED. */
export const FINAL_EXECUTION_STATUSES = ['COMPLETED', 'EXITED', 'FAILED', 'CANCELLED'] as const;
export type FinalExecutionStatus = (typeof FINAL_EXECUTION_STATUSES)[number];

/** Every status, the active ones first: an execution only ever moves towards an end. */
export const EXECUTION_STATUSES = [
  ...ACTIVE_EXECUTION_STATUSES,
  ...FINAL_EXECUTION_STATUSES,
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** What became of one step of an execution. */
export const STEP_RUN_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type StepRunStatus = (typeof STEP_RUN_STATUSES)[number];
