import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../../db/sql/sql.js';
import type {
  ExecutionRef,
  StepClosing,
  StepOutcome,
  WaitBegun,
} from '../../domain/automation/execution-run.pure.js';
import {
  beginRemoteStep,
  beginWaitStep,
  endExecution,
  failRemoteStep,
  runInstantStep,
  type StepScope,
} from '../../domain/automation/execution-steps.service.js';
import type { FinalExecutionStatus } from '../../domain/automation/execution-status.pure.js';
import type { GraphStep, WebhookConfig } from '../../domain/automation/step-config.pure.js';
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
    async runInstantStep(args: {
      ref: ExecutionRef;
      seq: number;
      step: GraphStep;
      close?: StepClosing;
      scope: StepScope;
    }): Promise<StepOutcome> {
      return runInstantStep({ sql, emailNotifier, ...args });
    },
    async beginWaitStep(args: {
      ref: ExecutionRef;
      seq: number;
      step: GraphStep;
      close?: StepClosing;
      context?: Record<string, unknown>;
    }): Promise<WaitBegun> {
      return beginWaitStep({ sql, ...args });
    },
    async beginRemoteStep(args: {
      ref: ExecutionRef;
      seq: number;
      step: GraphStep;
      close?: StepClosing;
      context?: Record<string, unknown>;
    }): Promise<boolean> {
      return beginRemoteStep({ sql, ...args });
    },
    async failRemoteStep(args: {
      ref: ExecutionRef;
      seq: number;
      error: string;
      result?: Record<string, unknown>;
    }): Promise<StepOutcome> {
      return failRemoteStep({ sql, ...args });
    },
    async endExecution(args: {
      ref: ExecutionRef;
      status: FinalExecutionStatus;
      close?: StepClosing;
      error?: string;
      context?: Record<string, unknown>;
    }): Promise<void> {
      await endExecution({ sql, ...args });
    },
    /**
     * One attempt of a WEBHOOK step. A failure another attempt may mend (the network, a 5xx or
     * 429 answer) is retried by Temporal; any other fails the step at once. The answer's status
     * and first bytes travel in the failure's details.
     */
    async attemptWebhook(args: {
      ref: ExecutionRef;
      stepId: string;
      config: WebhookConfig;
      scope: StepScope;
    }): Promise<{ status: number; body: string } | { inactive: true }> {
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
