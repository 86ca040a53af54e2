import {
  runDispatchLane,
  type DispatchReport,
} from '../../domain/automation/event-dispatch.service.js';
import type { StepRunDeps } from '../../domain/automation/execution-steps.service.js';
import type {
  AutomationDispatchSettings,
  QueueWakeups,
  WorkflowEngine,
} from '../../domain/shared/ports.js';
import { createLocalWakeups } from '../../domain/shared/local-wakeups.js';
import {
  runWebhookLane,
  type WebhookDeliveryDeps,
  type WebhookLaneReport,
} from '../../domain/webhooks/webhook-lane.service.js';
import { heartbeating } from './heartbeating.js';

export function createAutomationDispatchActivities({
  sql,
  emailNotifier,
  engine,
  wakeups,
  webhookWakeups,
  dispatch,
  webhooks,
}: StepRunDeps & {
  engine: WorkflowEngine;
  /** Events recorded, commands waiting: the dispatch lane's wake-up. */
  wakeups: QueueWakeups;
  /** Deliveries the API queued: the webhook lane's wake-up (besides the dispatcher's own). */
  webhookWakeups: QueueWakeups;
  dispatch: AutomationDispatchSettings;
  /** How the lanes send event webhooks (the dispatcher queues them), and how often they poll. */
  webhooks: Omit<WebhookDeliveryDeps, 'sql' | 'engine'> & { idlePollMs: number };
}) {
  return {
    /**
     * One run of a dispatch lane of the automation-dispatch workflow: the lane that matches
     * events to workflows (and queues their webhook deliveries), and beside it the lane that
     * sends the queue's webhook deliveries, so a slow endpoint never holds up dispatch. Both run
     * for `runForSeconds`; when one fails the other is stopped and the activity fails (retried).
     */
    async dispatchAutomation({
      runForSeconds,
    }: {
      runForSeconds: number;
    }): Promise<DispatchReport & { webhooks?: WebhookLaneReport }> {
      return heartbeating(async (note, context) => {
        const stop = new AbortController();
        const signal = AbortSignal.any([context.cancellationSignal, stop.signal]);
        const queued = createLocalWakeups();
        const progress: { dispatch?: DispatchReport; webhooks?: WebhookLaneReport } = {};
        const stopOnFailure = <T>(lane: Promise<T>): Promise<T> =>
          lane.catch((error: unknown) => {
            stop.abort();
            throw error;
          });
        const [dispatched, delivered] = await Promise.allSettled([
          stopOnFailure(
            runDispatchLane({
              sql,
              emailNotifier,
              engine,
              wakeups,
              queue: dispatch.queue,
              runForMs: runForSeconds * 1000,
              signal,
              onProgress: (report) => {
                progress.dispatch = report;
                note(progress);
              },
              onWebhooksQueued: () => queued.wake(),
            }),
          ),
          stopOnFailure(
            runWebhookLane({
              sql,
              engine,
              ...webhooks,
              queue: dispatch.queue,
              wakeups: webhookWakeups,
              local: queued,
              runForMs: runForSeconds * 1000,
              signal,
              onProgress: (report) => {
                progress.webhooks = report;
                note(progress);
              },
            }),
          ),
        ]);
        if (dispatched.status === 'rejected') throw dispatched.reason;
        if (delivered.status === 'rejected') throw delivered.reason;
        return { ...dispatched.value, webhooks: delivered.value };
      });
    },
    /**
     * Run by the `email-dispatch` schedule: makes sure the queue's automation dispatch loop runs
     * (an operator may have terminated it), with this worker's settings.
     */
    async ensureAutomationDispatch(): Promise<void> {
      await engine.ensureAutomationDispatch(dispatch);
    },
  };
}
