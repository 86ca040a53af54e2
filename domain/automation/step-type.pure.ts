import { timeUnits, unitMsOf } from '../shared/time-unit.pure.js';
import type {
  ConditionConfig,
  DelayConfig,
  ExitConfig,
  GraphStep,
  SendEmailConfig,
  StepConfig,
  UpdateContactConfig,
  WaitForEventConfig,
  WebhookConfig,
} from './step-config.pure.js';

// The step types of workflows and what the execution workflow, the interpreter, the graph checks
// and the dispatcher know of each: the pure half of the step registry (STEP_KINDS). The other
// half, each type's config schema and run, is domain/automation/steps/ (I/O), which the workflow
// never imports. A new step type is one entry in STEP_TYPES, StepConfigOf and STEP_KINDS here,
// plus its module in steps/.

export const STEP_TYPES = [
  'SEND_EMAIL',
  'DELAY',
  'WAIT_FOR_EVENT',
  'CONDITION',
  'WEBHOOK',
  'UPDATE_CONTACT',
  'ADD_TAG',
  'EXIT',
] as const;
export type StepType = (typeof STEP_TYPES)[number];

/** The config each step type holds, as stored and as executions read it. */
export interface StepConfigOf {
  SEND_EMAIL: SendEmailConfig;
  DELAY: DelayConfig;
  WAIT_FOR_EVENT: WaitForEventConfig;
  CONDITION: ConditionConfig;
  WEBHOOK: WebhookConfig;
  UPDATE_CONTACT: UpdateContactConfig;
  /** Adds `tag` to the contact's `data.tags` list, once. */
  ADD_TAG: { tag: string };
  EXIT: ExitConfig;
}

/** The branches a CONDITION step's transitions are labelled with. */
export const CONDITION_BRANCHES = ['yes', 'no'] as const;
export type ConditionBranch = (typeof CONDITION_BRANCHES)[number];
/** The branches of a WAIT_FOR_EVENT step: the event came, or the wait timed out. */
export const WAIT_BRANCHES = ['event', 'timeout'] as const;
export const TRANSITION_BRANCHES = [...CONDITION_BRANCHES, ...WAIT_BRANCHES] as const;
export type TransitionBranch = (typeof TRANSITION_BRANCHES)[number];

/** The units of a DELAY step (a subset of the one time-unit vocabulary). */
export const DELAY_UNITS = timeUnits('seconds', 'minutes', 'hours', 'days');
export type DelayUnit = (typeof DELAY_UNITS)[number];
export const DELAY_UNIT_MS = unitMsOf(DELAY_UNITS);

export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

/**
 * How an execution runs a step: in the local activity that runs steps one after another
 * (`instant`), as a durable timer (`timer`), by waiting for an event signal (`wait`), or as an
 * activity of its own with retries (`remote`, through the one generic remote-step activity).
 */
export const STEP_RUN_MODES = ['instant', 'timer', 'wait', 'remote'] as const;
export type StepRunMode = (typeof STEP_RUN_MODES)[number];

/** What a step changes besides the execution's own step log (for readers and the docs). */
export const STEP_WRITES = ['email', 'contact', 'outside', 'execution'] as const;
export type StepWrite = (typeof STEP_WRITES)[number];

/** What the pure side knows of one step type whose config is `C`, by its run mode. */
export type StepKind<C> = {
  /** The branches its outgoing transitions carry (none: one unlabelled transition). */
  branches: readonly TransitionBranch[];
  writes: readonly StepWrite[];
  /** It ends the execution (nothing may follow it; its run records the end). */
  ends?: boolean;
  /** The branches this config leaves unused (a wait without a timeout cannot time out). */
  unusedBranches?(config: C): readonly TransitionBranch[];
  /** The templates it names (each must exist for the workflow to run). */
  templateIds?(config: C): string[];
} & (
  | { mode: Exclude<StepRunMode, 'timer' | 'wait'> }
  /** A durable timer of `waitMs`. */
  | { mode: 'timer'; waitMs(config: C): number }
  /** Waits for the event `awaits` names, `waitMs` at most (undefined: as long as it takes). */
  | { mode: 'wait'; awaits(config: C): string; waitMs(config: C): number | undefined }
);

export type StepKinds = { [T in StepType]: StepKind<StepConfigOf[T]> };

export const STEP_KINDS = {
  SEND_EMAIL: {
    mode: 'instant',
    branches: [],
    writes: ['email'],
    templateIds: (config) => [config.templateId],
  },
  DELAY: {
    mode: 'timer',
    branches: [],
    writes: [],
    waitMs: (config) => config.amount * DELAY_UNIT_MS[config.unit],
  },
  WAIT_FOR_EVENT: {
    mode: 'wait',
    branches: WAIT_BRANCHES,
    writes: ['execution'],
    waitMs: (config) =>
      config.timeoutSeconds === undefined ? undefined : config.timeoutSeconds * 1000,
    awaits: (config) => config.eventName,
    unusedBranches: (config) => (config.timeoutSeconds === undefined ? ['timeout'] : []),
  },
  CONDITION: { mode: 'instant', branches: CONDITION_BRANCHES, writes: [] },
  WEBHOOK: { mode: 'remote', branches: [], writes: ['outside'] },
  UPDATE_CONTACT: { mode: 'instant', branches: [], writes: ['contact'] },
  ADD_TAG: { mode: 'instant', branches: [], writes: ['contact'] },
  EXIT: { mode: 'instant', branches: [], writes: ['execution'], ends: true },
} satisfies StepKinds;

/** The kind of `step`, its hooks reading that step's config. */
export function kindOf(step: GraphStep): StepKind<StepConfig> {
  return STEP_KINDS[step.type] as StepKind<StepConfig>;
}
