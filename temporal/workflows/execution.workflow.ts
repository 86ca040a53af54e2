import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  defineSignal,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type {
  ExecutionInput,
  ExecutionOutcome,
  ExecutionResume,
  StepClosing,
} from '../../domain/automation/execution-run.pure.js';
import { stepById } from '../../domain/automation/graph.pure.js';
import {
  contextWithEvent,
  delayMs,
  firstEventSince,
  firstStep,
  keepForLaterWaits,
  stepAfter,
  type ReceivedEvent,
} from '../../domain/automation/interpreter.pure.js';
import type { GraphStep } from '../../domain/automation/step-config.pure.js';
import { RUN_MODE_OF, type TransitionBranch } from '../../domain/automation/step-type.pure.js';
import type { Activities } from '../activities/index.js';
import { EXECUTION_EVENT } from '../shared/signals.js';

// Steps that touch only PostgreSQL run as local activities: no round trip to the server per
// step. Each is idempotent, so a retry (or a replay after a worker died mid-step) is harmless.
const local = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

// A webhook: 10 s per attempt, 3 attempts with backoff. The activity tells a failure worth
// retrying from one that is not (a refused address, a 4xx answer).
const remote = proxyActivities<Activities>({
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

export const executionEvent = defineSignal<[ReceivedEvent]>(EXECUTION_EVENT);

// Well under Temporal's limits; a run continues as new (keeping where it is) past this, which
// only a long wait with many events can reach.
const MAX_HISTORY_EVENTS = 1000;
const SEEN_IDS_KEPT = 200;

const tooLong = (): boolean =>
  workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= MAX_HISTORY_EVENTS;

/** The reason (and the answer, when there was one) an activity failed with. */
function failureOf(error: unknown): { error: string; result?: Record<string, unknown> } {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) {
    const details = cause.details?.[0] as Record<string, unknown> | undefined;
    return { error: cause.message, result: details };
  }
  return { error: cause instanceof Error ? cause.message : String(cause) };
}

/**
 * One execution of a workflow for one contact (`execution-<id>`): walks the graph it started
 * with, step by step, with the pure interpreter. Instant steps are local activities; DELAY is a
 * durable timer; WAIT_FOR_EVENT waits for an event signal recorded after the wait began, or its
 * timeout, whichever comes first; WEBHOOK is an activity with retries. PostgreSQL holds the
 * status and the step log (the API never asks Temporal). Cancelling the run cancels the
 * execution.
 */
export async function execution(input: ExecutionInput): Promise<ExecutionOutcome> {
  const { execution: ref, graph, trigger } = input;
  let context = input.context;
  let inbox: ReceivedEvent[] = input.resume?.inbox ?? [];
  const seen = new Set(input.resume?.seen ?? []);
  setHandler(executionEvent, (event) => {
    // Each event counts once, however often it is delivered.
    if (seen.has(event.id)) return;
    seen.add(event.id);
    inbox.push(event);
  });

  let step: GraphStep | undefined = input.resume
    ? stepById(graph, input.resume.stepId)
    : firstStep(graph);
  let seq = input.resume?.seq ?? 1;
  let close: StepClosing | undefined = input.resume?.close;
  let waiting: ExecutionResume['waiting'] = input.resume?.waiting;
  // The step begun and not yet closed, while a webhook runs.
  let open: number | undefined;
  let steps = 0;

  const carryOn = (): Promise<never> =>
    continueAsNew<typeof execution>({
      ...input,
      context,
      resume: {
        stepId: (step as GraphStep).id,
        seq,
        waiting,
        close,
        inbox,
        seen: [...seen].slice(-SEEN_IDS_KEPT),
      },
    });
  /** Until `ready()` holds (true) or `until` passes (false); no `until`, as long as it takes. */
  const waitUntil = async (ready: () => boolean, until: string | null): Promise<boolean> => {
    if (until === null) {
      await condition(ready);
      return true;
    }
    return condition(ready, Math.max(0, Date.parse(until) - Date.now()));
  };

  try {
    while (step) {
      if (!waiting && tooLong()) await carryOn();
      const mode = RUN_MODE_OF[step.type];
      let branch: TransitionBranch | null = null;
      if (mode === 'instant') {
        const outcome = await local.runInstantStep({
          ref,
          seq,
          step,
          close,
          scope: { trigger, context },
        });
        if (outcome.kind === 'inactive') return { status: 'INACTIVE', steps };
        if (outcome.kind === 'ended') return { status: outcome.status, steps: steps + 1 };
        close = outcome.closing;
        branch = outcome.branch;
      } else if (step.type === 'WEBHOOK') {
        if (!(await local.beginRemoteStep({ ref, seq, step, close, context }))) {
          return { status: 'INACTIVE', steps };
        }
        close = undefined;
        open = seq;
        try {
          const response = await remote.attemptWebhook({
            ref,
            stepId: step.id,
            config: step.config,
            scope: { trigger, context },
          });
          if ('inactive' in response) return { status: 'INACTIVE', steps };
          close = { seq, status: 'COMPLETED', result: response };
          open = undefined;
        } catch (error) {
          if (isCancellation(error)) throw error;
          await local.failRemoteStep({ ref, seq, ...failureOf(error) });
          return { status: 'FAILED', steps: steps + 1 };
        }
      } else if (step.type === 'DELAY' || step.type === 'WAIT_FOR_EVENT') {
        if (!waiting) {
          const begun = await local.beginWaitStep({ ref, seq, step, close, context });
          if (begun.kind === 'inactive') return { status: 'INACTIVE', steps };
          close = undefined;
          const timeoutMs =
            step.type === 'DELAY'
              ? delayMs(step.config)
              : step.config.timeoutSeconds === undefined
                ? undefined
                : step.config.timeoutSeconds * 1000;
          waiting = {
            since: begun.since,
            until:
              timeoutMs === undefined
                ? null
                : new Date(Date.parse(begun.since) + timeoutMs).toISOString(),
          };
        }
        const { since, until } = waiting;
        if (step.type === 'DELAY') {
          // A durable timer; woken early only to continue as new when events pile up meanwhile.
          if (await waitUntil(tooLong, until)) await carryOn();
          close = { seq, status: 'COMPLETED', result: null };
        } else {
          const name = step.config.eventName;
          const arrived = (): ReceivedEvent | undefined => firstEventSince(inbox, { name, since });
          const woken = await waitUntil(() => arrived() !== undefined || tooLong(), until);
          const event = arrived();
          if (woken && !event) await carryOn();
          if (event) {
            context = contextWithEvent(context, event);
            inbox = keepForLaterWaits(inbox, { since, used: event.id });
            branch = 'event';
            close = { seq, status: 'COMPLETED', result: { event: { id: event.id, name } } };
          } else {
            branch = 'timeout';
            close = { seq, status: 'COMPLETED', result: { timedOut: true } };
          }
        }
        waiting = undefined;
      }
      steps += 1;
      step = stepAfter(graph, step, branch);
      seq += 1;
    }
    await local.endExecution({ ref, status: 'COMPLETED', close, context });
    return { status: 'COMPLETED', steps };
  } catch (error) {
    if (isCancellation(error)) {
      // Cancelled through the API, the row says so already; from the Temporal UI, it says so now.
      const closing: StepClosing | undefined =
        waiting || open !== undefined ? { seq, status: 'CANCELLED' } : close;
      await CancellationScope.nonCancellable(() =>
        local.endExecution({ ref, status: 'CANCELLED', close: closing, context }),
      );
    }
    throw error;
  }
}
