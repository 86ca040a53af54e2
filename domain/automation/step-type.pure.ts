export const STEP_TYPES = [
  'SEND_EMAIL',
  'DELAY',
  'WAIT_FOR_EVENT',
  'CONDITION',
  'WEBHOOK',
  'UPDATE_CONTACT',
  'EXIT',
] as const;
export type StepType = (typeof STEP_TYPES)[number];

/** The branches a CONDITION step's transitions are labelled with. */
export const CONDITION_BRANCHES = ['yes', 'no'] as const;
export type ConditionBranch = (typeof CONDITION_BRANCHES)[number];
/** The branches of a WAIT_FOR_EVENT step: the event came, or the wait timed out. */
export const WAIT_BRANCHES = ['event', 'timeout'] as const;
export const TRANSITION_BRANCHES = [...CONDITION_BRANCHES, ...WAIT_BRANCHES] as const;
export type TransitionBranch = (typeof TRANSITION_BRANCHES)[number];

/** The branches each step type's outgoing transitions carry (none: one unlabelled transition). */
export const BRANCHES_OF: Record<StepType, readonly TransitionBranch[]> = {
  SEND_EMAIL: [],
  DELAY: [],
  WAIT_FOR_EVENT: WAIT_BRANCHES,
  CONDITION: CONDITION_BRANCHES,
  WEBHOOK: [],
  UPDATE_CONTACT: [],
  EXIT: [],
};

/** The units of a DELAY step. */
export const DELAY_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export type DelayUnit = (typeof DELAY_UNITS)[number];
export const DELAY_UNIT_MS: Record<DelayUnit, number> = {
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
};

export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

/**
 * How an execution runs each step type: in one local activity (`instant`), as a durable timer
 * (`timer`), by waiting for a signal (`wait`), or as an activity with retries (`remote`).
 */
export const STEP_RUN_MODES = ['instant', 'timer', 'wait', 'remote'] as const;
export type StepRunMode = (typeof STEP_RUN_MODES)[number];
export const RUN_MODE_OF: Record<StepType, StepRunMode> = {
  SEND_EMAIL: 'instant',
  DELAY: 'timer',
  WAIT_FOR_EVENT: 'wait',
  CONDITION: 'instant',
  WEBHOOK: 'remote',
  UPDATE_CONTACT: 'instant',
  EXIT: 'instant',
};
