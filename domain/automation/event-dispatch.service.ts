import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import {
  claimCommands,
  deleteCommands,
  dispatchEventBatch,
  findCommandInputs,
  markExecutionsStarted,
  postponeCommands,
  type CommandRow,
  type ExecutionStartRow,
} from '../../db/sql/event-dispatch.sql.js';
import type { ExecutionStart, LaneRun, WorkflowEngine } from '../shared/ports.js';
import type { CommandOutcome } from './execution-command.pure.js';
import { ACTIVE_EXECUTION_STATUSES } from './execution-status.pure.js';
import { advanceExecution, type StepRunDeps } from './execution-steps.service.js';
import { stepById } from './graph.pure.js';
import {
  firstStep,
  opensWithDelay,
  waitDeadline,
  type ReceivedEvent,
} from './execution-path.pure.js';

export interface DispatchReport {
  /** Events taken from the outbox. */
  events: number;
  started: number;
  signalled: number;
  cancelled: number;
  /** Commands Temporal could not take (tried again after a backoff). */
  postponed: number;
}

const isActive = (status: string | null): boolean =>
  status !== null && (ACTIVE_EXECUTION_STATUSES as readonly string[]).includes(status);

/** Seconds before a failed command is tried again: 1, 2, 4... up to 10. */
const backoffSeconds = (attempts: number): number => Math.min(10, 2 ** attempts);

const messageOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 500);

function startOf(row: ExecutionStartRow) {
  return {
    input: {
      execution: {
        executionId: row.id,
        projectId: row.project_id,
        workflowId: row.workflow_id,
        contactId: row.contact_id,
        queue: row.queue,
      },
      graph: row.graph,
      context: row.context,
      trigger: row.trigger_event
        ? { ...row.trigger_event, createdAt: new Date(row.trigger_event.createdAt).toISOString() }
        : null,
    },
    memo: {
      workflowName: row.workflow_name,
      contactEmail: row.contact_email,
      trigger: row.trigger_event ? row.trigger_event.name : 'manual',
    },
  };
}

/**
 * A run that opens with a DELAY (see opensWithDelay) takes its first steps here, up to that
 * DELAY, and its durable run is started to pick up there when the delay ends: one workflow task
 * for the opening instead of a task, a timer and another. Any other outcome (a step failed, the
 * execution was cancelled meanwhile) starts the run as usual, which finds the execution ended.
 * A retried start takes the same steps again, each idempotent.
 */
async function withOpeningDelay(
  steps: StepRunDeps,
  start: ExecutionStart,
): Promise<ExecutionStart> {
  const { input } = start;
  const first = firstStep(input.graph);
  if (!first || !opensWithDelay(input.graph)) return start;
  const advanced = await advanceExecution({
    ...steps,
    ref: input.execution,
    graph: input.graph,
    from: { stepId: first.id, seq: 1 },
    scope: { trigger: input.trigger, context: input.context },
  });
  if (advanced.kind !== 'waiting') return start;
  const until = waitDeadline(stepById(input.graph, advanced.stepId)!, advanced.since);
  if (until === null) return start;
  return {
    ...start,
    input: {
      ...input,
      resume: {
        stepId: advanced.stepId,
        seq: advanced.seq,
        waiting: { since: advanced.since, until },
        inbox: [],
        seen: [],
      },
    },
    startDelayMs: Math.max(0, Date.parse(until) - Date.now()),
  };
}

type Done = { id: string; kind: CommandOutcome };
type Failed = { id: string; seconds: number; error: string };

/**
 * Carries out a batch of commands against Temporal, `concurrency` at a time. A START of an
 * execution that was cancelled (or deleted) meanwhile is dropped; a SIGNAL waits for its
 * execution's START; a command Temporal cannot take now is postponed with a backoff.
 */
async function carryOut({
  steps,
  engine,
  commands,
  concurrency,
}: {
  steps: StepRunDeps;
  engine: WorkflowEngine;
  commands: CommandRow[];
  concurrency: number;
}): Promise<{ done: Done[]; failed: Failed[] }> {
  const { sql } = steps;
  const { starts, events } = await findCommandInputs(sql, {
    executionIds: commands.filter((c) => c.kind === 'START').map((c) => c.execution_id),
    eventIds: commands.flatMap((c) => (c.kind === 'SIGNAL' && c.event_id ? [c.event_id] : [])),
  });
  const done: Done[] = [];
  const failed: Failed[] = [];
  const limit = pLimit(concurrency);
  const startedNow = new Set<string>();

  const run = async (command: CommandRow): Promise<void> => {
    try {
      if (command.kind === 'START') {
        const row = starts.get(command.execution_id);
        if (!row || !isActive(command.status))
          return void done.push({ id: command.id, kind: 'dropped' });
        await engine.startExecution(await withOpeningDelay(steps, startOf(row)));
        startedNow.add(command.execution_id);
        return void done.push({ id: command.id, kind: 'started' });
      }
      if (command.kind === 'SIGNAL') {
        const event = command.event_id ? events.get(command.event_id) : undefined;
        if (!event || !isActive(command.status))
          return void done.push({ id: command.id, kind: 'dropped' });
        const received: ReceivedEvent = {
          id: event.id,
          name: event.name,
          data: event.data,
          createdAt: new Date(event.created_at).toISOString(),
        };
        const outcome = await engine.signalExecution({
          executionId: command.execution_id,
          event: received,
        });
        if (outcome === 'signalled') return void done.push({ id: command.id, kind: 'signalled' });
        // Its run has not been started yet (its START is pending): the signal waits for it.
        if (!command.started_at && !startedNow.has(command.execution_id)) {
          return void failed.push({ id: command.id, seconds: 1, error: 'waiting for the start' });
        }
        return void done.push({ id: command.id, kind: 'dropped' });
      }
      await engine.cancelExecution({ executionId: command.execution_id });
      done.push({ id: command.id, kind: 'cancelled' });
    } catch (error) {
      failed.push({
        id: command.id,
        seconds: backoffSeconds(command.attempts),
        error: messageOf(error),
      });
    }
  };
  // START commands first: a SIGNAL of the same batch may be for an execution started in it.
  await Promise.all(commands.filter((c) => c.kind === 'START').map((c) => limit(() => run(c))));
  await Promise.all(commands.filter((c) => c.kind !== 'START').map((c) => limit(() => run(c))));
  await markExecutionsStarted(sql, { started: startedNow });
  return { done, failed };
}

/**
 * One dispatch lane: until `runForMs` passes or `signal` aborts, dispatches batches of the
 * queue's events (matching, in one transaction per batch: see dispatchEventBatch) and carries
 * out its pending commands against Temporal. With nothing to do it sleeps until the queue's
 * wake-up (or `idlePollMs`), then lingers `lingerMs` so that the events recorded meanwhile go in
 * one batch: a batch costs the same statements whether it holds one event or hundreds, and
 * without the linger a steady stream of tracked events was dispatched a few at a time (about
 * 0.3 ms of worker CPU per event under bench:track). An event that matches nothing costs one row
 * deleted, no Temporal call; one nothing of its project could use never enters the outbox.
 */
export async function runDispatchLane({
  sql,
  emailNotifier,
  engine,
  wakeups,
  queue,
  runForMs,
  signal,
  eventBatchSize = 500,
  commandBatchSize = 200,
  concurrency = 32,
  leaseSeconds = 30,
  idlePollMs = 1000,
  lingerMs = 25,
  onProgress = () => undefined,
  onWebhooksQueued = () => undefined,
}: StepRunDeps &
  LaneRun & {
    engine: WorkflowEngine;
    eventBatchSize?: number;
    commandBatchSize?: number;
    concurrency?: number;
    lingerMs?: number;
    onProgress?: (report: DispatchReport) => void;
    /** Deliveries to webhook endpoints were queued (the lane's webhook sender may start on them). */
    onWebhooksQueued?: () => void;
  }): Promise<DispatchReport> {
  const report: DispatchReport = {
    events: 0,
    started: 0,
    signalled: 0,
    cancelled: 0,
    postponed: 0,
  };
  const until = Date.now() + runForMs;
  while (!signal.aborted && Date.now() < until) {
    const seen = wakeups.generation();
    // Events recorded by sessions that named no task queue ('') are any dispatcher's.
    const batch = await dispatchEventBatch(sql, {
      queues: [queue, ''],
      queue,
      limit: eventBatchSize,
    });
    report.events += batch.events;
    if (batch.webhooks > 0) onWebhooksQueued();
    const commands = await claimCommands(sql, { queue, limit: commandBatchSize, leaseSeconds });
    if (commands.length > 0) {
      const { done, failed } = await carryOut({
        steps: { sql, emailNotifier },
        engine,
        commands,
        concurrency,
      });
      await deleteCommands(sql, { ids: done.map((d) => d.id) });
      await postponeCommands(sql, { failures: failed });
      for (const d of done) {
        if (d.kind !== 'dropped') report[d.kind] += 1;
      }
      report.postponed += failed.length;
    }
    onProgress(report);
    const busy = batch.events === eventBatchSize || commands.length === commandBatchSize;
    const progressed = batch.events > 0 || commands.length > 0;
    if (!busy && !(progressed && batch.started + batch.signalled > 0)) {
      await wakeups.waitForChange(seen, Math.min(idlePollMs, until - Date.now()), signal);
      const lingering = Math.max(0, Math.min(lingerMs, until - Date.now()));
      await sleep(lingering, undefined, { signal }).catch(() => undefined); // aborted: stop now
    }
  }
  return report;
}
