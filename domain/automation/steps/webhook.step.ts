import { attemptWebhook } from '../webhook-step.service.js';
import type { StepDefinition } from './step-definition.js';
import { webhookConfig } from './webhook-config.js';

/**
 * WEBHOOK: the rendered request sent to the outside (run mode `remote`: an activity with retries).
 * A network failure or a 5xx/429 answer may mend on another attempt; any other failure is final.
 * The answer's status and first bytes are the step's result, or its failure's details.
 */
export const webhookStep: StepDefinition<'WEBHOOK'> = {
  help: '`{url, method?, headers?, body?}` (templates)',
  config: webhookConfig,
  async attempt({ sql, sendWebhook, ref, step, scope }) {
    const outcome = await attemptWebhook({
      sql,
      send: sendWebhook,
      ref,
      stepId: step.id,
      config: step.config,
      scope,
    });
    if (outcome.ok) return { ok: true, result: { status: outcome.status, body: outcome.body } };
    if ('inactive' in outcome) return outcome;
    const result =
      outcome.status === undefined ? undefined : { status: outcome.status, body: outcome.body };
    return { ok: false, retry: outcome.retry, error: outcome.error, result };
  },
};
