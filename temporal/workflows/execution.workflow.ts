import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  defineSignal,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type {
  AdvanceOutcome,
  ExecutionInput,
  ExecutionOutcome,
  ExecutionResume,
  StepClosing,
} from '../../domain/automation/execution-contract.pure.js';
import { stepById } from '../../domain/automation/graph.pure.js';
import {
  contextWithEvent,
  firstEventSince,
  firstStep,
  keepForLaterWaits,
  stepAfter,
  waitDeadline,
  type ReceivedEvent,
} from '../../domain/automation/execution-path.pure.js';
import type { GraphStep, WebhookConfig } from '../../domain/automation/step-config.pure.js';
import { kindOf, type TransitionBranch } from '../../domain/automation/step-type.pure.js';
import { assertNever } from '../../domain/shared/assert-never.pure.js';
import type { Activities } from '../activities/index.js';
import { REMOTE_STEP_PATCH } from '../shared/patches.js';
import { EXECUTION_EVENT } from '../shared/signals.js';

// Steps that touch only PostgreSQL run as local activities: no round trip to the server per
// step. Each is idempotent, so a retry (or a replay after a worker died mid-step) is harmless.
// Writing how an execution ended is retried for as long as it takes: nothing else would.
const local = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** Attempts of the instant steps before the one that keeps failing fails the execution. */
export const STEP_ATTEMPTS = 5;
// Running steps is tried STEP_ATTEMPTS times (1 + 2 + 4 + 8 s apart, a short outage of the
// database rides through): a step that keeps throwing then fails, with its reason, instead of
// holding its execution RUNNING for ever.
const stepRunner = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: STEP_ATTEMPTS },
});

// A remote step (a webhook): 20 s per attempt, 3 attempts with backoff. Its activity tells a
// failure worth retrying from one that is not (a refused address, a 4xx answer).
const remote = proxyActivities<Activities>({
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

export const executionEvent = defineSignal<[ReceivedEvent]>(EXECUTION_EVENT);

// Well under Temporal's limits; a run continues as new (keeping where it is) past this, which
// only a long wait with many events can reach.
const MAX_HISTORY_EVENTS = 1000;
const SEEN_IDS_KEPT = 200;
// Versions the wait whose deadline has passed already (see waitUntil).
const PASSED_DEADLINE_PATCH = 'wait-deadline-passed';

type Waiting = NonNullable<ExecutionResume['waiting']>;

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
 * with, using the pure interpreter. Steps that complete at once run in one local activity up to
 * the next step that takes time (advanceExecution); DELAY is a durable timer; WAIT_FOR_EVENT
 * waits for an event signal recorded after the wait began, or its timeout, whichever comes
 * first; WEBHOOK is an activity with retries. PostgreSQL holds the status and the step log (the
 * API never asks Temporal). Cancelling the run cancels the execution.
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
  // `step` has begun and is being waited on (a DELAY or WAIT_FOR_EVENT).
  let waiting: Waiting | undefined = input.resume?.waiting;
  // `step` has begun and its webhook runs.
  let open = false;
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
    const left = Date.parse(until) - Date.now();
    // A run started when its opening DELAY ended (its start delay) sets no timer that has
    // nothing left to wait: the steps after it run in this same workflow task.
    if (left <= 0 && patched(PASSED_DEADLINE_PATCH)) return ready();
    return condition(ready, Math.max(0, left));
  };

  /**
   * Takes the step begun (a remote step: `open`; a timer or a wait: `waiting`) to its end, by its
   * run mode: the branch it leaves by, or how the execution ended.
   */
  const takeStep = async (
    current: GraphStep,
  ): Promise<{ branch: TransitionBranch | null } | { ended: ExecutionOutcome }> => {
    const kind = kindOf(current);
    switch (kind.mode) {
      case 'instant':
        // Instant steps run inside advanceExecution, which never stops at one.
        throw new Error(`An instant ${current.type} step cannot be waited on`);
      case 'remote': {
        try {
          const scope = { trigger, context };
          let result: Record<string, unknown>;
          if (patched(REMOTE_STEP_PATCH)) {
            const response = await remote.attemptRemoteStep({ ref, step: current, scope });
            if ('inactive' in response) return { ended: { status: 'INACTIVE', steps } };
            result = response.result;
          } else {
            // Runs begun before the patch attempt their WEBHOOK as they did then.
            const response = await remote.attemptWebhook({
              ref,
              stepId: current.id,
              config: current.config as WebhookConfig,
              scope,
            });
            if ('inactive' in response) return { ended: { status: 'INACTIVE', steps } };
            result = response;
          }
          close = { seq, status: 'COMPLETED', result };
          open = false;
          return { branch: null };
        } catch (error) {
          if (isCancellation(error)) throw error;
          await local.failRemoteStep({ ref, seq, ...failureOf(error) });
          return { ended: { status: 'FAILED', steps: steps + 1 } };
        }
      }
      case 'timer': {
        // A durable timer; woken early only to continue as new when events pile up meanwhile.
        if (await waitUntil(tooLong, (waiting as Waiting).until)) await carryOn();
        close = { seq, status: 'COMPLETED', result: null };
        return { branch: null };
      }
      case 'wait': {
        const { since, until } = waiting as Waiting;
        const name = kind.awaits(current.config);
        const arrived = (): ReceivedEvent | undefined => firstEventSince(inbox, { name, since });
        const woken = await waitUntil(() => arrived() !== undefined || tooLong(), until);
        const event = arrived();
        if (woken && !event) await carryOn();
        if (event) {
          context = contextWithEvent(context, event);
          inbox = keepForLaterWaits(inbox, { since, used: event.id });
          close = { seq, status: 'COMPLETED', result: { event: { id: event.id, name } } };
          return { branch: 'event' };
        }
        close = { seq, status: 'COMPLETED', result: { timedOut: true } };
        return { branch: 'timeout' };
      }
    }
    return assertNever(kind, 'run mode');
  };

  try {
    while (step) {
      if (!waiting) {
        if (tooLong()) await carryOn();
        let advanced: AdvanceOutcome;
        try {
          advanced = await stepRunner.advanceExecution({
            ref,
            graph,
            from: { stepId: step.id, seq },
            close,
            scope: { trigger, context },
          });
        } catch (error) {
          if (isCancellation(error)) throw error;
          // A step kept failing: it fails (the details say which), and so does the execution.
          const failure = failureOf(error);
          const at = typeof failure.result?.seq === 'number' ? failure.result.seq : seq;
          await local.failRemoteStep({ ref, seq: at, error: failure.error });
          return { status: 'FAILED', steps: steps + 1 };
        }
        steps += advanced.ran.length;
        if (advanced.kind === 'inactive') return { status: 'INACTIVE', steps };
        if (advanced.kind === 'ended') return { status: advanced.status, steps };
        step = stepById(graph, advanced.stepId) as GraphStep;
        seq = advanced.seq;
        close = undefined;
        if (advanced.kind === 'waiting') {
          waiting = { since: advanced.since, until: waitDeadline(step, advanced.since) };
        } else {
          open = true;
        }
      }
      const taken = await takeStep(step);
      if ('ended' in taken) return taken.ended;
      waiting = undefined;
      steps += 1;
      step = stepAfter(graph, step, taken.branch);
      seq += 1;
    }
    await local.endExecution({ ref, status: 'COMPLETED', close, context });
    return { status: 'COMPLETED', steps };
  } catch (error) {
    if (isCancellation(error)) {
      // Cancelled through the API, the row says so already; from the Temporal UI, it says so now.
      const closing: StepClosing | undefined =
        waiting || open ? { seq, status: 'CANCELLED' } : close;
      await CancellationScope.nonCancellable(() =>
        local.endExecution({ ref, status: 'CANCELLED', close: closing, context }),
      );
    }
    throw error;
  }
}
