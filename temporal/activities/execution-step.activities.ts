import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../../db/sql/sql.js';
import type {
  AdvanceOutcome,
  StepOutcome,
} from '../../domain/automation/execution-contract.pure.js';
import {
  advanceExecution,
  attemptRemoteStep,
  endExecution,
  failRemoteStep,
  StepAttemptError,
} from '../../domain/automation/execution-steps.service.js';
import { attemptWebhook } from '../../domain/automation/webhook-step.service.js';
import type { QueueNotifier, WebhookSender } from '../../domain/shared/ports.js';

/** The steps of executions: thin wrappers over domain/automation (see execution.workflow.ts). */
export function createExecutionStepActivities({
  sql,
  emailNotifier,
  sendWebhook,
}: {
  sql: Sql;
  emailNotifier: QueueNotifier;
  sendWebhook: WebhookSender;
}) {
  return {
    /**
     * Runs the execution's steps from `from` up to the first that takes time (see
     * advanceExecution). A step that throws fails this attempt with its place (`seq`) in the
     * details, so the workflow can fail that step once the attempts run out.
     */
    async advanceExecution(
      args: Omit<Parameters<typeof advanceExecution>[0], 'sql' | 'emailNotifier'>,
    ): Promise<AdvanceOutcome> {
      try {
        return await advanceExecution({ sql, emailNotifier, ...args });
      } catch (error) {
        if (!(error instanceof StepAttemptError)) throw error;
        throw ApplicationFailure.retryable(error.message, 'StepAttemptFailed', { seq: error.seq });
      }
    },
    async failRemoteStep(
      args: Omit<Parameters<typeof failRemoteStep>[0], 'sql'>,
    ): Promise<StepOutcome> {
      return failRemoteStep({ sql, ...args });
    },
    async endExecution(args: Omit<Parameters<typeof endExecution>[0], 'sql'>): Promise<void> {
      await endExecution({ sql, ...args });
    },
    /**
     * One attempt of a remote step, whatever its type (the registry holds each type's attempt).
     * A failure another attempt may mend is retried by Temporal; any other fails the step at
     * once. What the step got back (a webhook's status and first bytes) travels in the details.
     */
    async attemptRemoteStep(
      args: Omit<Parameters<typeof attemptRemoteStep>[0], 'sql' | 'sendWebhook'>,
    ): Promise<{ result: Record<string, unknown> } | { inactive: true }> {
      const outcome = await attemptRemoteStep({ sql, sendWebhook, ...args });
      if (outcome.ok) return { result: outcome.result };
      if ('inactive' in outcome) return { inactive: true };
      const details = outcome.result ?? {};
      if (outcome.retry) throw ApplicationFailure.retryable(outcome.error, 'StepFailed', details);
      throw ApplicationFailure.nonRetryable(outcome.error, 'StepRefused', details);
    },
    /**
     * One attempt of a WEBHOOK step: what runs scheduled before the generic attemptRemoteStep
     * (REMOTE_STEP_PATCH) still call, until none is left.
     */
    async attemptWebhook(
      args: Omit<Parameters<typeof attemptWebhook>[0], 'sql' | 'send'>,
    ): Promise<{ status: number; body: string } | { inactive: true }> {
      const outcome = await attemptWebhook({ sql, send: sendWebhook, ...args });
      if (outcome.ok) return { status: outcome.status, body: outcome.body };
      if ('inactive' in outcome) return { inactive: true };
      const details =
        outcome.status === undefined ? {} : { status: outcome.status, body: outcome.body };
      if (outcome.retry)
        throw ApplicationFailure.retryable(outcome.error, 'WebhookFailed', details);
      throw ApplicationFailure.nonRetryable(outcome.error, 'WebhookRefused', details);
    },
  };
}
