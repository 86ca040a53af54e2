import { beginExecutionStep, finishExecution } from '../../db/sql/executions.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { DomainError } from '../shared/errors.js';
import type { FinalExecutionStatus } from './execution-status.pure.js';
import type {
  AdvanceOutcome,
  ExecutionRef,
  StepClosing,
  StepOutcome,
  StepRan,
} from './execution-contract.pure.js';
import { stepById } from './graph.pure.js';
import { stepAfter } from './execution-path.pure.js';
import type { GraphStep, WorkflowGraph } from './step-config.pure.js';
import { kindOf, type StepType } from './step-type.pure.js';
import { definitionOf } from './steps/index.js';
import type {
  InstantRun,
  InstantStepResult,
  RemoteAttempt,
  RemoteRun,
  RemoteStepDeps,
  StepRunDeps,
  StepScope,
} from './steps/step-definition.js';

export type { StepRunDeps, StepScope };

/** A step type's run, called for any step (the registry holds each type's own). */
type InstantRunOf = (run: InstantRun<StepType>) => Promise<InstantStepResult>;
type RemoteAttemptOf = (run: RemoteRun<StepType>) => Promise<RemoteAttempt>;

// The database side of an execution's steps, run by its durable run's activities. Every write
// is idempotent (a step's row is keyed by its place in the run, its email by execution and
// step), and every step first checks that the execution is still RUNNING or WAITING, so a
// cancelled execution runs nothing more.

/** Ends the execution with `status`, closing the step it leaves. */
export async function endExecution({
  sql,
  ref,
  status,
  close,
  error,
  context,
}: {
  sql: Sql;
  ref: ExecutionRef;
  status: FinalExecutionStatus;
  close?: StepClosing;
  error?: string;
  context?: Record<string, unknown>;
}): Promise<void> {
  await finishExecution(sql, { executionId: ref.executionId, status, close, error, context });
}

/**
 * A step that failed for good (a remote step's last attempt, an instant step that kept throwing,
 * or one whose run answered an error): the step is FAILED with its reason, and so is the execution.
 */
export async function failRemoteStep({
  sql,
  ref,
  seq,
  error,
  result,
}: {
  sql: Sql;
  ref: ExecutionRef;
  seq: number;
  error: string;
  result?: Record<string, unknown>;
}): Promise<StepOutcome> {
  await finishExecution(sql, {
    executionId: ref.executionId,
    status: 'FAILED',
    close: { seq, status: 'FAILED', error, result },
    error,
  });
  return { kind: 'ended', status: 'FAILED' };
}

/** A step's run threw (not for good: another attempt may mend it); `seq` is its place. */
export class StepAttemptError extends Error {
  constructor(
    message: string,
    readonly seq: number,
  ) {
    super(message);
  }
}

/**
 * Runs a step that completes at once (its type's run), after recording that the execution begins
 * it and closing the step it leaves; a step that ends the execution records that itself. A
 * DomainError, or an `error` answer, fails the step and the execution; any other throw (the
 * database) is left to the activity's retries.
 */
async function runInstantStep({
  ref,
  seq,
  step,
  close,
  scope,
  ...deps
}: StepRunDeps & {
  ref: ExecutionRef;
  seq: number;
  step: GraphStep;
  close?: StepClosing;
  scope: StepScope;
}): Promise<StepOutcome> {
  const kind = kindOf(step);
  const definition = definitionOf(step.type);
  if (kind.mode !== 'instant' || !('run' in definition)) {
    throw new Error(`${step.type} steps do not complete at once`);
  }
  if (!kind.ends) {
    const begun = await beginExecutionStep(deps.sql, {
      executionId: ref.executionId,
      seq,
      stepId: step.id,
      type: step.type,
      waiting: false,
      close,
      context: scope.context,
    });
    if (!begun.active) return { kind: 'inactive' };
  }
  let answer: InstantStepResult;
  try {
    answer = await (definition.run as InstantRunOf)({ ...deps, ref, seq, step, close, scope });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error; // the database or the like: tried again
    answer = { error: error.message };
  }
  if ('inactive' in answer) return { kind: 'inactive' };
  if ('ended' in answer) return { kind: 'ended', status: answer.ended };
  if ('error' in answer) {
    return failRemoteStep({ sql: deps.sql, ref, seq, error: answer.error, result: answer.result });
  }
  return {
    kind: 'done',
    branch: answer.branch ?? null,
    closing: { seq, status: 'COMPLETED', result: answer.result },
  };
}

/**
 * Runs an execution's steps from `from` for as long as they complete at once (SEND_EMAIL,
 * CONDITION, UPDATE_CONTACT, EXIT), following the graph with the pure interpreter, and stops at
 * the first step that takes time, which it begins: a DELAY or WAIT_FOR_EVENT (the execution is
 * WAITING), or a WEBHOOK. A path that runs out completes the execution. One call instead of one
 * per step: fewer round trips to Temporal and to PostgreSQL per execution.
 */
export async function advanceExecution({
  sql,
  emailNotifier,
  ref,
  graph,
  from,
  close,
  scope,
}: StepRunDeps & {
  ref: ExecutionRef;
  graph: WorkflowGraph;
  from: { stepId: string; seq: number };
  close?: StepClosing;
  scope: StepScope;
}): Promise<AdvanceOutcome> {
  const ran: StepRan[] = [];
  let step = stepById(graph, from.stepId);
  let seq = from.seq;
  let closing = close;
  while (step) {
    const mode = kindOf(step).mode;
    if (mode !== 'instant') {
      // A step that takes time begins (a DELAY or WAIT_FOR_EVENT: WAITING from now, by the
      // database's clock, which events are compared with); the workflow takes it from there.
      const begun = await beginExecutionStep(sql, {
        executionId: ref.executionId,
        seq,
        stepId: step.id,
        type: step.type,
        waiting: mode !== 'remote',
        close: closing,
        context: scope.context,
      });
      if (!begun.active || !begun.startedAt) return { kind: 'inactive', ran };
      return mode === 'remote'
        ? { kind: 'remote', stepId: step.id, seq, ran }
        : {
            kind: 'waiting',
            stepId: step.id,
            seq,
            since: new Date(begun.startedAt).toISOString(),
            ran,
          };
    }
    let outcome: StepOutcome;
    try {
      outcome = await runInstantStep({
        sql,
        emailNotifier,
        ref,
        seq,
        step,
        close: closing,
        scope,
      });
    } catch (error) {
      // The workflow gives up after a few attempts, and fails this step: say which it was.
      throw new StepAttemptError(error instanceof Error ? error.message : String(error), seq);
    }
    if (outcome.kind !== 'done')
      return { ...outcome, ran: [...ran, { seq, stepId: step.id, type: step.type, branch: null }] };
    ran.push({ seq, stepId: step.id, type: step.type, branch: outcome.branch });
    closing = outcome.closing;
    step = stepAfter(graph, step, outcome.branch);
    seq += 1;
  }
  const ended = await finishExecution(sql, {
    executionId: ref.executionId,
    status: 'COMPLETED',
    close: closing,
    context: scope.context,
  });
  return ended ? { kind: 'ended', status: 'COMPLETED', ran } : { kind: 'inactive', ran };
}

/** One attempt of a remote step (its type's attempt), for the one generic remote activity. */
export async function attemptRemoteStep({
  ref,
  step,
  scope,
  ...deps
}: RemoteStepDeps & {
  ref: ExecutionRef;
  step: GraphStep;
  scope: StepScope;
}): Promise<RemoteAttempt> {
  const definition = definitionOf(step.type);
  if (kindOf(step).mode !== 'remote' || !('attempt' in definition)) {
    throw new Error(`${step.type} steps are not remote`);
  }
  return (definition.attempt as RemoteAttemptOf)({ ...deps, ref, step, scope });
}
