import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../../db/sql/sql.js';
import type { AdvanceOutcome, StepOutcome } from '../../domain/automation/execution-run.pure.js';
import {
  advanceExecution,
  endExecution,
  failRemoteStep,
} from '../../domain/automation/execution-steps.service.js';
import { attemptWebhook } from '../../domain/automation/webhook-step.service.js';
import type { QueueNotifier, WebhookSender } from '../../domain/shared/ports.js';

/** The steps of executions: thin wrappers over domain/automation (see execution.workflow.ts). */
export function createExecutionStepActivities({
  sql,
  emailNotifier,
  sendWebhook,
  billingOn,
}: {
  sql: Sql;
  emailNotifier: QueueNotifier;
  sendWebhook: WebhookSender;
  /** Billing is on: monthly caps apply to the mail steps queue. */
  billingOn: boolean;
}) {
  return {
    /** Runs the execution's steps from `from` up to the first that takes time (see advanceExecution). */
    async advanceExecution(
      args: Omit<Parameters<typeof advanceExecution>[0], 'sql' | 'emailNotifier' | 'billingOn'>,
    ): Promise<AdvanceOutcome> {
      return advanceExecution({ sql, emailNotifier, billingOn, ...args });
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
     * One attempt of a WEBHOOK step. A failure another attempt may mend (the network, a 5xx or
     * 429 answer) is retried by Temporal; any other fails the step at once. The answer's status
     * and first bytes travel in the failure's details.
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
