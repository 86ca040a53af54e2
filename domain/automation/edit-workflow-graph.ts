import {
  deleteWorkflowStep,
  deleteWorkflowTransition,
  hasActiveExecutions,
  insertWorkflowStep,
  insertWorkflowTransition,
  listWorkflowSteps,
  updateWorkflowStep,
} from '../../db/sql/workflows.sql.js';
import { isUniqueViolation } from '../../db/sql/sql.js';
import { conflict, notFound, validationError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { spliceProblem, transitionProblem } from './graph.pure.js';
import { parseStepConfig } from './steps/index.js';
import type { StepType, TransitionBranch } from './step-type.pure.js';
import { MAX_WORKFLOW_STEPS, changeGraph, type WorkflowRef } from './workflow-rules.js';
import {
  toStepView,
  toTransitionView,
  type StepView,
  type TransitionView,
} from './workflow-view.js';

export interface StepInput {
  type: StepType;
  name?: string | null;
  config: unknown;
  position?: { x: number; y: number } | null;
}

export async function addStep({
  input,
  ...workflow
}: WorkflowRef & { input: StepInput }): Promise<StepView> {
  const config = parseStepConfig(input.type, input.config);
  return changeGraph(workflow, async (tx, { graph }) => {
    if (graph.steps.length >= MAX_WORKFLOW_STEPS) {
      throw validationError({
        field: 'type',
        message: `A workflow has at most ${MAX_WORKFLOW_STEPS} steps`,
        code: 'too_many_steps',
      });
    }
    const row = await insertWorkflowStep(tx, {
      id: newId(),
      workflow_id: workflow.workflowId,
      type: input.type,
      name: input.name ?? null,
      config,
      position: input.position ?? null,
    });
    return toStepView(row);
  });
}

/**
 * A step's name, position or config (its type stays). A config change is refused (409) while
 * executions are RUNNING or WAITING unless `force`; they keep the graph they started with either way.
 */
export async function updateStep({
  stepId,
  patch,
  force,
  ...workflow
}: WorkflowRef & {
  stepId: string;
  patch: { name?: string | null; config?: unknown; position?: { x: number; y: number } | null };
  force: boolean;
}): Promise<StepView> {
  const { workflowId } = workflow;
  return changeGraph(workflow, async (tx) => {
    const steps = await listWorkflowSteps(tx, { workflowId });
    const step = steps.find((s) => s.id === stepId);
    if (!step) throw notFound('Step');
    const config =
      patch.config === undefined ? step.config : parseStepConfig(step.type, patch.config);
    if (patch.config !== undefined && !force && (await hasActiveExecutions(tx, { workflowId }))) {
      throw conflict(
        'The workflow has running or waiting executions',
        'They keep the graph they started with; pass ?force=true to change the step anyway.',
      );
    }
    const row = await updateWorkflowStep(tx, {
      id: stepId,
      name: patch.name === undefined ? step.name : patch.name,
      config,
      position: patch.position === undefined ? step.position : patch.position,
    });
    return toStepView(row);
  });
}

/** Deletes a step with its transitions; `splice` first links the steps before it to the one after. */
export async function deleteStep({
  stepId,
  splice,
  ...workflow
}: WorkflowRef & { stepId: string; splice: boolean }): Promise<void> {
  await changeGraph(workflow, async (tx, { graph }) => {
    if (!graph.steps.some((s) => s.id === stepId)) throw notFound('Step');
    if (splice) {
      const problem = spliceProblem(graph, stepId);
      if (problem) throw validationError(problem);
    }
    const next = graph.transitions.find((t) => t.from === stepId)?.to ?? null;
    await deleteWorkflowStep(tx, { stepId, spliceTo: splice ? next : null });
  });
}

export async function addTransition({
  input,
  ...workflow
}: WorkflowRef & {
  input: { fromStepId: string; toStepId: string; branch?: TransitionBranch | null };
}): Promise<TransitionView> {
  return changeGraph(workflow, async (tx, { graph }) => {
    const branch = input.branch ?? null;
    const problem = transitionProblem(graph, {
      from: input.fromStepId,
      to: input.toStepId,
      branch,
    });
    if (problem) throw validationError(problem);
    try {
      const row = await insertWorkflowTransition(tx, {
        id: newId(),
        workflow_id: workflow.workflowId,
        from_step_id: input.fromStepId,
        to_step_id: input.toStepId,
        branch,
      });
      return toTransitionView(row);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw validationError({
          field: 'branch',
          message: 'This branch already has its transition',
          code: 'branch_taken',
        });
      }
      throw error;
    }
  });
}

export async function deleteTransition({
  transitionId,
  ...workflow
}: WorkflowRef & { transitionId: string }): Promise<void> {
  await changeGraph(workflow, async (tx) => {
    const { workflowId } = workflow;
    if (!(await deleteWorkflowTransition(tx, { workflowId, transitionId }))) {
      throw notFound('Transition');
    }
  });
}
