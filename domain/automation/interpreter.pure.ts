import { entrySteps, nextStepId, stepById } from './graph.pure.js';
import type { DelayConfig, GraphStep, WorkflowGraph } from './step-config.pure.js';
import { DELAY_UNIT_MS, type TransitionBranch } from './step-type.pure.js';

// What an execution does between steps, decided from the graph it started with and from what
// its steps answered. Pure and deterministic: the execution workflow runs it.

/** An event as it reaches an execution (a signal). */
export interface ReceivedEvent {
  id: string;
  name: string;
  data: Record<string, unknown>;
  /** ISO 8601: when the event was recorded. */
  createdAt: string;
}

/** The step an execution begins with (the graph's one entry step). */
export function firstStep(graph: WorkflowGraph): GraphStep | undefined {
  return entrySteps(graph)[0];
}

/** The step after `step`, left by `branch`; undefined when the path ends there. */
export function stepAfter(
  graph: WorkflowGraph,
  step: GraphStep,
  branch: TransitionBranch | null,
): GraphStep | undefined {
  const next = nextStepId(graph, step.id, branch);
  return next === null ? undefined : stepById(graph, next);
}

export function delayMs(config: DelayConfig): number {
  return config.amount * DELAY_UNIT_MS[config.unit];
}

/**
 * The first event named `name` recorded at or after `since` (ISO 8601), in the order received:
 * an event recorded before a wait began does not end it.
 */
export function firstEventSince(
  inbox: readonly ReceivedEvent[],
  { name, since }: { name: string; since: string },
): ReceivedEvent | undefined {
  const from = Date.parse(since);
  return inbox.find((event) => event.name === name && Date.parse(event.createdAt) >= from);
}

/** How many received events an execution keeps for waits still to come. */
export const INBOX_MAX = 200;

/** Events that may still end a wait beginning at or after `since`, the newest INBOX_MAX. */
export function keepForLaterWaits(
  inbox: readonly ReceivedEvent[],
  { since, used }: { since: string; used?: string },
): ReceivedEvent[] {
  const from = Date.parse(since);
  return inbox
    .filter((event) => event.id !== used && Date.parse(event.createdAt) >= from)
    .slice(-INBOX_MAX);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The context with an awaited event's data kept under its name, read as a path
 * (`order.completed` is `context.order.completed.<key>`). Nothing else in the context changes.
 */
export function contextWithEvent(
  context: Record<string, unknown>,
  event: ReceivedEvent,
): Record<string, unknown> {
  const path = event.name.split('.').filter((key) => key !== '');
  if (path.length === 0) return context;
  const write = (node: Record<string, unknown>, depth: number): Record<string, unknown> => {
    const key = path[depth] as string;
    if (depth === path.length - 1) return { ...node, [key]: event.data };
    const child = node[key];
    return { ...node, [key]: write(isRecord(child) ? child : {}, depth + 1) };
  };
  return write(context, 0);
}
