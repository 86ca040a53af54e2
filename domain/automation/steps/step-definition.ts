import type { z } from 'zod';
import type { Sql } from '../../../db/sql/sql.js';
import type { QueueNotifier, WebhookSender } from '../../shared/ports.js';
import type { FinalExecutionStatus } from '../execution-status.pure.js';
import type { ExecutionRef, StepClosing } from '../execution-contract.pure.js';
import type { ReceivedEvent } from '../execution-path.pure.js';
import type { GraphStepOf } from '../step-config.pure.js';
import type { STEP_KINDS, StepConfigOf, StepType, TransitionBranch } from '../step-type.pure.js';

// The I/O half of a step type (the pure half is its STEP_KINDS entry): the schema its config is
// checked with, and what running it does. Each type is one module of this folder.

/** What steps that run at once reach: PostgreSQL, and the delivery lanes' wake-up. */
export interface StepRunDeps {
  sql: Sql;
  /** Wakes the delivery lanes of the execution's queue after a SEND_EMAIL. */
  emailNotifier: QueueNotifier;
}

/** What remote steps reach: PostgreSQL and the outside world. */
export interface RemoteStepDeps {
  sql: Sql;
  sendWebhook: WebhookSender;
}

/** What a step's template variables and conditions see of the execution. */
export interface StepScope {
  trigger: ReceivedEvent | null;
  context: Record<string, unknown>;
}

/**
 * What an instant step's run answers: done (and by which branch), failed for good (`error`: the
 * step and the execution are FAILED with it), or, for a step that ends the execution, whether it
 * did (`ended`) or found it ended already (`inactive`). A throw is a failure another attempt
 * may mend (the database): the activity is tried again, a bounded number of times.
 */
export type InstantStepResult =
  | { result: Record<string, unknown>; branch?: TransitionBranch }
  | { error: string; result?: Record<string, unknown> }
  | { ended: FinalExecutionStatus }
  | { inactive: true };

export interface InstantRun<T extends StepType> extends StepRunDeps {
  ref: ExecutionRef;
  seq: number;
  step: GraphStepOf<T>;
  scope: StepScope;
  /** The step before, still to be closed (only a step that ends the execution closes it). */
  close?: StepClosing;
}

/** One attempt of a remote step; `retry`: another attempt may succeed. */
export type RemoteAttempt =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; retry: boolean; error: string; result?: Record<string, unknown> }
  | { ok: false; inactive: true };

export interface RemoteRun<T extends StepType> extends RemoteStepDeps {
  ref: ExecutionRef;
  step: GraphStepOf<T>;
  scope: StepScope;
}

/** An instant step has a run, a remote step an attempt; timers and waits have neither. */
type RunOf<T extends StepType> = (typeof STEP_KINDS)[T]['mode'] extends 'instant'
  ? { run: (run: InstantRun<T>) => Promise<InstantStepResult> }
  : (typeof STEP_KINDS)[T]['mode'] extends 'remote'
    ? { attempt: (run: RemoteRun<T>) => Promise<RemoteAttempt> }
    : object;

export type StepDefinition<T extends StepType> = {
  /** Its config's shape, as the API reference shows it (`{templateId}`). */
  help: string;
  /** Checks a config given over the API and puts it in canonical form. */
  config: z.ZodType<StepConfigOf[T], unknown>;
} & RunOf<T>;

export type StepDefinitions = { [T in StepType]: StepDefinition<T> };

/** The longest a timer or a wait may be given. */
export const MAX_WAIT_SECONDS = 365 * 86_400;
