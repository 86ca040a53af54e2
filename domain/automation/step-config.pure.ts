import type { Condition } from '../segments/filter/ast.pure.js';
import type {
  DelayUnit,
  StepConfigOf,
  StepType,
  TransitionBranch,
  WebhookMethod,
} from './step-type.pure.js';

// The config of each step type (decisions.md, Workflows), as stored and as executions read it.

export interface SendEmailConfig {
  templateId: string;
}

export interface DelayConfig {
  amount: number;
  unit: DelayUnit;
}

export interface WaitForEventConfig {
  /** Our spelling of the name (Plunk's email.* spellings are translated on the way in). */
  eventName: string;
  /** Without it the step waits for the event as long as it takes. */
  timeoutSeconds?: number;
}

/** One condition of the filter language, read in the workflow scope (`event.*`, `context.*`). */
export type ConditionConfig = Condition;

export interface WebhookConfig {
  /** A template; rendered, it must be an http(s) URL. */
  url: string;
  method: WebhookMethod;
  /** Values are templates. */
  headers?: Record<string, string>;
  /**
   * A template (JSON when it looks like JSON or the content type says so; values are then
   * JSON-escaped), or a JSON value whose strings are templates.
   */
  body?: unknown;
}

export interface UpdateContactConfig {
  /** Merged by the data rules (null deletes a key). */
  data?: Record<string, unknown>;
  subscribed?: boolean;
}

export interface ExitConfig {
  reason?: string;
}

export type { StepConfigOf };

export type StepConfig = StepConfigOf[StepType];

/** A step as a graph holds it. */
export type GraphStepOf<T extends StepType> = {
  id: string;
  type: T;
  name: string | null;
  config: StepConfigOf[T];
};
export type GraphStep = { [T in StepType]: GraphStepOf<T> }[StepType];

export interface GraphTransition {
  id: string;
  from: string;
  to: string;
  branch: TransitionBranch | null;
}

/** A workflow's steps and the transitions between them: what an execution walks. */
export interface WorkflowGraph {
  steps: GraphStep[];
  transitions: GraphTransition[];
}
