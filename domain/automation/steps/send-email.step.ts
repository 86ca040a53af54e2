import { z } from 'zod';
import {
  findExecutionStepEmail,
  findSendContext,
  queueExecutionEmail,
} from '../../../db/sql/queue-email.sql.js';
import type { Sql } from '../../../db/sql/sql.js';
import { chargeCap } from '../../billing/billing.service.js';
import { matchSenderDomain } from '../../domains/sender-domain.pure.js';
import { DomainError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { StepDefinition } from './step-definition.js';

/** Thrown to undo a charge when the step's email was queued (and counted) by an earlier attempt. */
class QueuedBefore extends Error {}

/**
 * Queues the step's email taking one from the project's monthly `workflows` cap, in one
 * transaction; a retried step whose email exists already is not counted again.
 */
async function queueWithinCap<T extends { id: string; status: string } | undefined>(
  sql: Sql,
  {
    projectId,
    id,
    cap,
    executionId,
    stepId,
  }: { projectId: string; id: string; cap: number; executionId: string; stepId: string },
  queue: (tx: Sql) => Promise<T>,
): Promise<T> {
  try {
    return await sql.transaction(async (tx) => {
      // Charged before the insert, so the usage count made from the rows does not hold it.
      await chargeCap({ tx, projectId, category: 'workflows', count: 1, cap });
      const queued = await queue(tx);
      if (queued === undefined || queued.id !== id || queued.status !== 'QUEUED') {
        throw new QueuedBefore();
      }
      return queued;
    });
  } catch (error) {
    if (error instanceof QueuedBefore) return queue(sql); // finds the earlier one, or nothing
    // A retry of a step whose email the cap's last place went to: that email stands.
    if (error instanceof DomainError && error.code === 'BILLING_LIMIT_EXCEEDED') {
      const earlier = await findExecutionStepEmail(sql, { executionId, stepId });
      if (earlier) return earlier as T;
    }
    throw error;
  }
}

/**
 * SEND_EMAIL: queues the template's email to the contact in the outbox (one per execution and
 * step), for the delivery lanes of the execution's queue; counted against the `workflows` cap.
 */
export const sendEmailStep: StepDefinition<'SEND_EMAIL'> = {
  help: '`{templateId}`',
  config: z.strictObject({ templateId: z.uuid() }),
  async run({ sql, emailNotifier, ref, step, scope }) {
    const { template, verifiedDomains, cap } = await findSendContext(sql, {
      projectId: ref.projectId,
      templateId: step.config.templateId,
      capCategory: 'workflows',
    });
    if (!template) return { error: `Template ${step.config.templateId} no longer exists` };
    const domain = matchSenderDomain(verifiedDomains, template.from_address);
    if (!domain) {
      return {
        error: `The template's sender ${template.from_address} is not on a verified domain`,
      };
    }
    const id = newId();
    const queue = (tx: Sql) =>
      queueExecutionEmail(tx, {
        id,
        projectId: ref.projectId,
        contactId: ref.contactId,
        templateId: template.id,
        domainId: domain.id,
        variables: { event: scope.trigger?.data ?? {}, context: scope.context },
        deliveryQueue: ref.queue,
        workflowId: ref.workflowId,
        executionId: ref.executionId,
        stepId: step.id,
      });
    let email: Awaited<ReturnType<typeof queue>>;
    try {
      email =
        cap === undefined
          ? await queue(sql)
          : await queueWithinCap(
              sql,
              { projectId: ref.projectId, id, cap, executionId: ref.executionId, stepId: step.id },
              queue,
            );
    } catch (error) {
      if (error instanceof DomainError && error.code === 'BILLING_LIMIT_EXCEEDED') {
        return { error: error.message };
      }
      throw error;
    }
    if (!email) return { error: 'The contact or the template no longer exists' };
    if (email.status === 'QUEUED') emailNotifier.queued(ref.queue);
    return { result: { emailId: email.id, status: email.status } };
  },
};
