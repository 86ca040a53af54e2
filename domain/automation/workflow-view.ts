import {
  type WorkflowRow,
  type WorkflowStepRow,
  type WorkflowTransitionRow,
} from '../../db/sql/workflows.sql.js';
import { type FieldError } from '../shared/errors.js';
import { EXECUTION_STATUSES, type ExecutionStatus } from './execution-status.pure.js';
import type { GraphStep, StepConfig, WorkflowGraph } from './step-config.pure.js';
import type { StepType, TransitionBranch } from './step-type.pure.js';
import type { TriggerType } from './trigger-type.pure.js';

export interface StepView {
  id: string;
  workflowId: string;
  type: StepType;
  name: string | null;
  config: StepConfig;
  position: { x: number; y: number } | null;
  createdAt: string;
  updatedAt: string;
}

export interface TransitionView {
  id: string;
  workflowId: string;
  fromStepId: string;
  toStepId: string;
  branch: TransitionBranch | null;
  createdAt: string;
}

export interface WorkflowView {
  id: string;
  name: string;
  description: string | null;
  triggerType: TriggerType;
  triggerConfig: { eventName?: string; segmentId?: string };
  /** The event an EVENT workflow starts on (also as `eventName`). */
  triggerEvent: string | null;
  eventName: string | null;
  enabled: boolean;
  allowReentry: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface WorkflowDetailView extends WorkflowView {
  steps: StepView[];
  transitions: TransitionView[];
  /** How many executions are in each status. */
  executions: Record<ExecutionStatus, number>;
  /**
   * What keeps the workflow from running (enabling it is refused while any remain). While it is
   * enabled, new executions start with the last graph that had none.
   */
  problems: FieldError[];
}

const iso = (date: Date | string): string => new Date(date).toISOString();

export function toWorkflowView(row: WorkflowRow): WorkflowView {
  const triggerEvent = row.trigger_type === 'EVENT' ? row.trigger_event : null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    triggerType: row.trigger_type,
    triggerConfig:
      row.trigger_type === 'EVENT' && row.trigger_event
        ? { eventName: row.trigger_event }
        : row.trigger_type === 'SEGMENT_ENTRY' && row.trigger_segment_id
          ? { segmentId: row.trigger_segment_id }
          : {},
    triggerEvent,
    eventName: triggerEvent,
    enabled: row.enabled,
    allowReentry: row.allow_reentry,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export const toStepView = (row: WorkflowStepRow): StepView => ({
  id: row.id,
  workflowId: row.workflow_id,
  type: row.type,
  name: row.name,
  config: row.config,
  position: row.position,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export const toTransitionView = (row: WorkflowTransitionRow): TransitionView => ({
  id: row.id,
  workflowId: row.workflow_id,
  fromStepId: row.from_step_id,
  toStepId: row.to_step_id,
  branch: row.branch,
  createdAt: iso(row.created_at),
});

/** The graph executions walk, from a workflow's step and transition rows. */
export function graphOf(
  steps: WorkflowStepRow[],
  transitions: WorkflowTransitionRow[],
): WorkflowGraph {
  return {
    steps: steps.map(
      (s) => ({ id: s.id, type: s.type, name: s.name, config: s.config }) as GraphStep,
    ),
    transitions: transitions.map((t) => ({
      id: t.id,
      from: t.from_step_id,
      to: t.to_step_id,
      branch: t.branch,
    })),
  };
}
export const countsOf = (found: Record<string, number>): Record<ExecutionStatus, number> =>
  Object.fromEntries(EXECUTION_STATUSES.map((s) => [s, found[s] ?? 0])) as Record<
    ExecutionStatus,
    number
  >;
