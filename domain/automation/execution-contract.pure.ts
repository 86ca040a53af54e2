import type { FinalExecutionStatus, StepRunStatus } from './execution-status.pure.js';
import type { ReceivedEvent } from './execution-path.pure.js';
import type { WorkflowGraph } from './step-config.pure.js';
import type { StepType, TransitionBranch } from './step-type.pure.js';

// What passes between an execution's durable run and its activities. Pure types only.

/** Which execution a step belongs to, and where its mail and commands go. */
export interface ExecutionRef {
  executionId: string;
  projectId: string;
  workflowId: string;
  contactId: string;
  /** The task queue of the execution (its emails are delivered by that queue's lanes). */
  queue: string;
}

/** How a step ended, written when the execution moves on (or ends). */
export interface StepClosing {
  seq: number;
  status: StepRunStatus;
  result?: Record<string, unknown> | null;
  error?: string | null;
}

/** Where a run continued as new picks up: the step it was at, and what it had received. */
export interface ExecutionResume {
  stepId: string;
  seq: number;
  /** The step was begun and is being waited on (a DELAY or WAIT_FOR_EVENT). */
  waiting?: { since: string; until: string | null };
  /** The step before, still to be closed. */
  close?: StepClosing;
  inbox: ReceivedEvent[];
  /** Ids of events received lately (each counts once). */
  seen: string[];
}

/** The input of an execution's durable run (`execution-<id>`): the graph it started with. */
export interface ExecutionInput {
  execution: ExecutionRef;
  graph: WorkflowGraph;
  context: Record<string, unknown>;
  /** The event that started it (`event.*` in conditions); null for a manual start. */
  trigger: ReceivedEvent | null;
  resume?: ExecutionResume;
}

/** What running one step answered. */
export type StepOutcome =
  /** The step is done; the execution goes on by `branch` (the closing is written later). */
  | { kind: 'done'; branch: TransitionBranch | null; closing: StepClosing }
  /** The execution has ended (an EXIT step, or a step that failed): nothing more to run. */
  | { kind: 'ended'; status: FinalExecutionStatus }
  /** The execution was cancelled (or deleted) meanwhile: stop without writing anything. */
  | { kind: 'inactive' };

/** A step an advance ran, and the branch it left by (what the Temporal UI shows of it). */
export interface StepRan {
  seq: number;
  stepId: string;
  type: StepType;
  branch: TransitionBranch | null;
}

/**
 * Where an advance (instant steps run one after another) stopped: at a DELAY or WAIT_FOR_EVENT
 * now begun, at a WEBHOOK now begun, or at the end of the execution.
 */
export type AdvanceOutcome = { ran: StepRan[] } & (
  | { kind: 'waiting'; stepId: string; seq: number; since: string }
  | { kind: 'remote'; stepId: string; seq: number }
  | { kind: 'ended'; status: FinalExecutionStatus }
  | { kind: 'inactive' }
);

/** How an execution's run ended. */
export interface ExecutionOutcome {
  status: FinalExecutionStatus | 'INACTIVE';
  steps: number;
}
