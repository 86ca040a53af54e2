import dagre from '@dagrejs/dagre';
import type { Edge, Node } from '@xyflow/react';
import {
  kindOf,
  STEP_KINDS,
  STEP_TYPES,
  type StepKind,
  type StepType,
} from '../../../domain/automation/step-type.pure';
import type { GraphStep } from '../../../domain/automation/step-config.pure';
import type { Step, Transition } from './workflow-queries';

export const TRIGGER_ID = 'trigger';
export const NODE_WIDTH = 240;
export const NODE_HEIGHT = 96;

/** `handles`: the step's source handles left to right, in the order their targets lie. */
export type StepNodeData = { step: Step; handles: (string | null)[] };
export type TriggerNodeData = { label: string };
export type StepNode = Node<StepNodeData, 'step'>;
export type TriggerNode = Node<TriggerNodeData, 'trigger'>;
export type GraphNode = StepNode | TriggerNode;

/** Steps with no step before them: where executions begin (the trigger leads there). */
export function entryStepIds(steps: Step[], transitions: Transition[]): string[] {
  const targets = new Set(transitions.map((t) => t.toStepId));
  return steps.filter((s) => !targets.has(s.id)).map((s) => s.id);
}

/**
 * The workflow as React Flow nodes and edges: the trigger, a node per step, an edge per
 * transition (its branch as the source handle and label), dashed edges from the trigger to the
 * entry steps. Laid out top to bottom by dagre; a step the user placed keeps its position.
 * `heights`: the steps' heights as drawn, where known (a step listing its problems or its counts
 * is taller than NODE_HEIGHT, and the next rank must start below it).
 */
export function toFlow(
  trigger: string,
  steps: Step[],
  transitions: Transition[],
  heights: ReadonlyMap<string, number> = new Map(),
): { nodes: GraphNode[]; edges: Edge[] } {
  const heightOf = (id: string) => Math.max(heights.get(id) ?? 0, NODE_HEIGHT);
  const entries = entryStepIds(steps, transitions);
  const edges: Edge[] = [
    ...entries.map((id) => ({
      id: `trigger->${id}`,
      source: TRIGGER_ID,
      target: id,
      deletable: false,
      style: { strokeDasharray: '6 4' },
    })),
    ...transitions.map((t) => ({
      id: t.id,
      source: t.fromStepId,
      sourceHandle: t.branch ?? undefined,
      target: t.toStepId,
    })),
  ];
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'TB', nodesep: 48, ranksep: 64 });
  graph.setDefaultEdgeLabel(() => ({}));
  graph.setNode(TRIGGER_ID, { width: NODE_WIDTH, height: 56 });
  for (const s of steps) graph.setNode(s.id, { width: NODE_WIDTH, height: heightOf(s.id) });
  for (const e of edges) graph.setEdge(e.source, e.target);
  dagre.layout(graph);
  const at = (id: string, height: number) => {
    const p = graph.node(id);
    return { x: p.x - NODE_WIDTH / 2, y: p.y - height / 2 };
  };
  const nodes: GraphNode[] = [
    {
      id: TRIGGER_ID,
      type: 'trigger',
      position: at(TRIGGER_ID, 56),
      data: { label: trigger },
      deletable: false,
    },
    ...steps.map((step): StepNode => ({
      id: step.id,
      type: 'step',
      position: step.position ?? at(step.id, heightOf(step.id)),
      data: { step, handles: handlesInTargetOrder(step, transitions, (id) => graph.node(id).x) },
    })),
  ];
  return { nodes, edges };
}

/** The source handles of a step: its branches, one plain handle, or none after an end. */
export function sourceHandles(step: Step): (string | null)[] {
  const kind = kindOf(step as unknown as GraphStep);
  if (kind.ends) return [];
  return kind.branches.length > 0 ? [...kind.branches] : [null];
}

/** A step's branch handles ordered by where their targets were laid out, so links do not cross. */
function handlesInTargetOrder(
  step: Step,
  transitions: Transition[],
  xOf: (stepId: string) => number,
): (string | null)[] {
  const handles = sourceHandles(step);
  if (handles.length < 2) return handles;
  const targetX = (branch: string | null) => {
    const t = transitions.find((t) => t.fromStepId === step.id && t.branch === branch);
    return t ? xOf(t.toStepId) : Number.POSITIVE_INFINITY;
  };
  return [...handles].sort((a, b) => targetX(a) - targetX(b));
}

/** Step types that fit on a link: one way in, one plain way on (no branches, not an end). */
export const INSERTABLE_TYPES: StepType[] = STEP_TYPES.filter((type) => {
  const kind = STEP_KINDS[type] as StepKind<unknown>;
  return kind.branches.length === 0 && !kind.ends;
});
