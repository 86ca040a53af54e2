import type { GraphStep, GraphTransition, WorkflowGraph } from './step-config.pure.js';
import { kindOf, type TransitionBranch } from './step-type.pure.js';
import { reaches } from '../shared/reachable.pure.js';

// Rules of a workflow's step graph: how steps may be linked, what makes a graph runnable, and
// how an execution finds its way through it. Pure: the workflow code walks graphs with it.

/** A reason a link or a graph is refused, naming the field (`steps.<id>`, `branch`...). */
export interface GraphProblem {
  field: string;
  message: string;
  code: string;
}

/** Steps in the graph's order, transitions by their step of origin. */
export function stepById(graph: WorkflowGraph, stepId: string): GraphStep | undefined {
  return graph.steps.find((step) => step.id === stepId);
}

const outgoing = (graph: WorkflowGraph, stepId: string): GraphTransition[] =>
  graph.transitions.filter((t) => t.from === stepId);

/** Steps that no transition leads to. A runnable graph has exactly one: where executions begin. */
export function entrySteps(graph: WorkflowGraph): GraphStep[] {
  const targets = new Set(graph.transitions.map((t) => t.to));
  return graph.steps.filter((step) => !targets.has(step.id));
}

/** Where an execution goes after `stepId` left by `branch` (null: the step's one transition). */
export function nextStepId(
  graph: WorkflowGraph,
  stepId: string,
  branch: TransitionBranch | null,
): string | null {
  return outgoing(graph, stepId).find((t) => t.branch === branch)?.to ?? null;
}

/** Whether `to` leads (through any number of transitions) to `from`. */
function leadsTo(graph: WorkflowGraph, start: string, goal: string): boolean {
  return reaches({ start, goal, next: (at) => outgoing(graph, at).map((t) => t.to) });
}

const branchList = (branches: readonly string[]): string =>
  branches.map((b) => `"${b}"`).join(' or ');

/**
 * Why a transition from `from` to `to` (by `branch`) may not be added: an unknown step, a self
 * link, a link out of an EXIT step, a branch the step type does not have (or lacks one it
 * needs), a branch already taken, or a cycle.
 */
export function transitionProblem(
  graph: WorkflowGraph,
  { from, to, branch }: { from: string; to: string; branch: TransitionBranch | null },
): GraphProblem | undefined {
  const source = stepById(graph, from);
  if (!source) {
    return { field: 'fromStepId', message: 'No such step in this workflow', code: 'not_found' };
  }
  if (!stepById(graph, to)) {
    return { field: 'toStepId', message: 'No such step in this workflow', code: 'not_found' };
  }
  if (from === to) {
    return { field: 'toStepId', message: 'A step cannot lead to itself', code: 'self_link' };
  }
  const kind = kindOf(source);
  if (kind.ends) {
    return {
      field: 'fromStepId',
      message: `An ${source.type} step ends the execution; nothing can follow it`,
      code: 'exit_has_no_next',
    };
  }
  const branches = kind.branches;
  if (branches.length === 0 && branch !== null) {
    return {
      field: 'branch',
      message: `A ${source.type} step has one way out; give no branch`,
      code: 'invalid_branch',
    };
  }
  if (branches.length > 0 && (branch === null || !branches.includes(branch))) {
    return {
      field: 'branch',
      message: `A ${source.type} step's transitions need a branch: ${branchList(branches)}`,
      code: 'invalid_branch',
    };
  }
  if (outgoing(graph, from).some((t) => t.branch === branch)) {
    return {
      field: branch === null ? 'fromStepId' : 'branch',
      message:
        branch === null
          ? 'This step already has its transition; delete it first'
          : `This step's "${branch}" branch already has its transition; delete it first`,
      code: 'branch_taken',
    };
  }
  if (leadsTo(graph, to, from)) {
    return {
      field: 'toStepId',
      message: 'This link would make a cycle: the target step already leads back here',
      code: 'cycle',
    };
  }
  return undefined;
}

/**
 * What deleting `stepId` with splice does to the links around it: the transitions that led to
 * it lead to its one next step instead. Refused when the step branches (which branch would its
 * parents continue on?).
 */
export function spliceProblem(graph: WorkflowGraph, stepId: string): GraphProblem | undefined {
  const next = outgoing(graph, stepId);
  if (next.length > 1) {
    return {
      field: 'splice',
      message:
        'The step has more than one branch, so its parents cannot be linked to one next step; delete it without splice',
      code: 'cannot_splice',
    };
  }
  return undefined;
}

/** The event names the graph's waiting steps wait for (only those reach its executions). */
export function waitedEventNames(graph: WorkflowGraph): string[] {
  const names = new Set<string>();
  for (const step of graph.steps) {
    const kind = kindOf(step);
    if (kind.mode === 'wait') names.add(kind.awaits(step.config));
  }
  return [...names].sort();
}

const stepField = (step: GraphStep): string => `steps.${step.id}`;
const stepLabel = (step: GraphStep): string =>
  step.name ? `${step.type} step "${step.name}"` : `${step.type} step`;

/**
 * Why a graph cannot run, one problem per step at fault: no steps, more than one first step, a
 * branch left without its transition, a SEND_EMAIL step naming a template the project lacks.
 * `templateIds` are the project's templates among those the graph names.
 */
export function runProblems(
  graph: WorkflowGraph,
  { templateIds }: { templateIds: ReadonlySet<string> },
): GraphProblem[] {
  if (graph.steps.length === 0) {
    return [
      {
        field: 'steps',
        message: 'The workflow has no steps: nothing would run after the trigger',
        code: 'no_steps',
      },
    ];
  }
  const problems: GraphProblem[] = [];
  const entries = entrySteps(graph);
  if (entries.length > 1) {
    for (const step of entries.slice(1)) {
      problems.push({
        field: stepField(step),
        message: `The ${stepLabel(step)} has no step before it, and neither has ${stepLabel(entries[0] as GraphStep)} (${entries[0]?.id}): link the steps so that one comes first`,
        code: 'several_first_steps',
      });
    }
  }
  for (const step of graph.steps) {
    const kind = kindOf(step);
    const taken = new Set(outgoing(graph, step.id).map((t) => t.branch));
    const unused = kind.unusedBranches?.(step.config) ?? [];
    const needed = kind.branches.filter((branch) => !unused.includes(branch));
    const dangling = needed.filter((branch) => !taken.has(branch));
    if (dangling.length > 0) {
      problems.push({
        field: stepField(step),
        message: `The ${stepLabel(step)} has no transition for its ${branchList(dangling)} branch (link it to an EXIT step to end there)`,
        code: 'dangling_branch',
      });
    }
    // Only a wait's timeout can go unused; its problem says what the step lacks.
    if (unused.some((branch) => taken.has(branch))) {
      problems.push({
        field: stepField(step),
        message: `The ${stepLabel(step)} has a "timeout" transition but no timeoutSeconds`,
        code: 'timeout_without_timeout',
      });
    }
    for (const templateId of kind.templateIds?.(step.config) ?? []) {
      if (templateIds.has(templateId)) continue;
      problems.push({
        field: stepField(step),
        message: `The ${stepLabel(step)} names template ${templateId}, which this project does not have`,
        code: 'unknown_template',
      });
    }
  }
  return problems;
}

/** The template ids a graph's steps name (its SEND_EMAIL steps'). */
export function templateIdsOf(graph: WorkflowGraph): string[] {
  return [...new Set(graph.steps.flatMap((step) => kindOf(step).templateIds?.(step.config) ?? []))];
}
