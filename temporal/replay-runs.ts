import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { Worker, type ReplayWorkerOptions } from '@temporalio/worker';

// Replay before deploy: recent closed runs of a Temporal namespace, replayed against the working
// tree's workflow code. A divergence here is a run that the new code would break in flight.

export interface ReplayFilter {
  /** A workflow type (`execution`, `campaignSend`...). */
  workflowType?: string;
  /** Runs of one project only (the ProjectId search attribute). */
  projectId?: string;
  /** Runs closed at or after this time. */
  since?: Date;
  /** Runs closed before this time. */
  until?: Date;
  /** At most this many runs, the most recently closed first. */
  limit: number;
}

export interface ReplayDivergence {
  workflowId: string;
  runId: string;
  workflowType: string;
  /** The first history event the code did not match, when the error names one. */
  firstDifferingEvent?: { eventId: number; eventType: string };
  message: string;
}

export interface ReplaySummary {
  /** Per workflow type: runs replayed and, of them, runs that diverged. */
  byType: Record<string, { replayed: number; diverged: number }>;
  divergences: ReplayDivergence[];
}

const TYPE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The visibility query of a filter; values are checked, so nothing can be injected into it. */
export function closedRunsQuery(filter: Omit<ReplayFilter, 'limit'>): string {
  const clauses = [`ExecutionStatus != 'Running'`];
  if (filter.workflowType !== undefined) {
    if (!TYPE_PATTERN.test(filter.workflowType)) throw new Error('--type: a workflow type name');
    clauses.push(`WorkflowType = '${filter.workflowType}'`);
  }
  if (filter.projectId !== undefined) {
    if (!UUID_PATTERN.test(filter.projectId)) throw new Error('--project: a project id (UUID)');
    clauses.push(`ProjectId = '${filter.projectId}'`);
  }
  if (filter.since) clauses.push(`CloseTime >= '${filter.since.toISOString()}'`);
  if (filter.until) clauses.push(`CloseTime < '${filter.until.toISOString()}'`);
  return clauses.join(' AND ');
}

/** The event a determinism error points at: core names it as `id: N` or `event N`. */
function differingEvent(
  message: string,
  history: { events?: { eventId?: unknown; eventType?: unknown }[] | null },
): ReplayDivergence['firstDifferingEvent'] {
  const match = /(?:event[_ ]?id:?|HistoryEvent\(id:|event) ?(\d+)/i.exec(message);
  if (!match) return undefined;
  const eventId = Number(match[1]);
  const event = history.events?.find((e) => Number(e.eventId) === eventId);
  const type = event?.eventType;
  const name = typeof type === 'number' ? proto.temporal.api.enums.v1.EventType[type] : type;
  return { eventId, eventType: String(name ?? 'unknown') };
}

export async function replayRecentRuns({
  client,
  filter,
  workflows,
}: {
  client: Client;
  filter: ReplayFilter;
  /** The code to replay with: the working tree's workflows, or a bundle. */
  workflows: Pick<ReplayWorkerOptions, 'workflowsPath' | 'workflowBundle'>;
}): Promise<ReplaySummary> {
  const runs: {
    workflowId: string;
    runId: string;
    workflowType: string;
    history: Awaited<ReturnType<ReturnType<Client['workflow']['getHandle']>['fetchHistory']>>;
  }[] = [];
  for await (const run of client.workflow.list({ query: closedRunsQuery(filter) })) {
    if (runs.length >= filter.limit) break;
    const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
    runs.push({ workflowId: run.workflowId, runId: run.runId, workflowType: run.type, history });
  }
  const summary: ReplaySummary = { byType: {}, divergences: [] };
  const results = Worker.runReplayHistories(
    { ...workflows, replayName: 'replay-before-deploy' },
    runs.map(({ workflowId, history }) => ({ workflowId, history })),
  );
  // Results come one per history, in the order given.
  let index = 0;
  for await (const result of results) {
    const run = runs[index++];
    const type = run?.workflowId === result.workflowId ? run.workflowType : 'unknown';
    const counts = (summary.byType[type] ??= { replayed: 0, diverged: 0 });
    counts.replayed += 1;
    if (result.error) {
      counts.diverged += 1;
      // Core wraps the reason in a long report; its own message says what differed.
      const message = /message: "([^"]+)"/.exec(result.error.message)?.[1] ?? result.error.message;
      summary.divergences.push({
        workflowId: result.workflowId,
        runId: run?.runId ?? result.runId,
        workflowType: type,
        firstDifferingEvent: run ? differingEvent(message, run.history) : undefined,
        message,
      });
    }
  }
  return summary;
}
