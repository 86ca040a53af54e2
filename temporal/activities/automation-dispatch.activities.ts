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
import { heartbeating } from './heartbeating.js';

export function createAutomationDispatchActivities({
  sql,
  emailNotifier,
  engine,
  wakeups,
  dispatch,
}: StepRunDeps & {
  engine: WorkflowEngine;
  wakeups: QueueWakeups;
  dispatch: AutomationDispatchSettings;
}) {
  return {
    /** One run of a dispatch lane of the automation-dispatch workflow. */
    async dispatchAutomation({
      runForSeconds,
    }: {
      runForSeconds: number;
    }): Promise<DispatchReport> {
      return heartbeating((note, context) =>
        runDispatchLane({
          sql,
          emailNotifier,
          engine,
          wakeups,
          queue: dispatch.queue,
          runForMs: runForSeconds * 1000,
          signal: context.cancellationSignal,
          onProgress: note,
        }),
      );
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
