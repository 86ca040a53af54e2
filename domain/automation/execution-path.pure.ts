import { entrySteps, nextStepId, stepById } from './graph.pure.js';
import type { GraphStep, WorkflowGraph } from './step-config.pure.js';
import { kindOf, type TransitionBranch } from './step-type.pure.js';

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

/** When a timer or wait step begun at `since` (ISO 8601) ends by itself (null: never). */
export function waitDeadline(step: GraphStep, since: string): string | null {
  const kind = kindOf(step);
  const ms = kind.mode === 'timer' || kind.mode === 'wait' ? kind.waitMs(step.config) : undefined;
  return ms === undefined ? null : new Date(Date.parse(since) + ms).toISOString();
}

/** A step that runs at once and always goes on to its one next step (no branch, no end). */
function runsStraightOn(step: GraphStep): boolean {
  const kind = kindOf(step);
  return kind.mode === 'instant' && kind.branches.length === 0 && !kind.ends;
}

/**
 * Whether every run of the graph begins with instant steps that lead, without a branch, to a
 * DELAY (as `SEND_EMAIL -> DELAY 1 day -> ...` does): such a run can take its first steps before
 * its durable run exists, which then starts when that delay ends (Temporal's start delay).
 */
export function opensWithDelay(graph: WorkflowGraph): boolean {
  let step = firstStep(graph);
  for (let hops = 0; step && hops <= graph.steps.length; hops += 1) {
    if (kindOf(step).mode === 'timer') return true;
    if (!runsStraightOn(step)) return false;
    step = stepAfter(graph, step, null);
  }
  return false;
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
