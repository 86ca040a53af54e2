import { insertAttachments } from '../../db/sql/attachments.sql.js';
import { findSendContext, upsertContactAndQueueEmail } from '../../db/sql/queue-email.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { chargeCap } from '../billing/billing.service.js';
import { withIdempotencyKey } from '../idempotency/idempotency.service.js';
import { notFound, validationError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { QueueNotifier } from '../shared/ports.js';
import { templateProblems } from '../templates/template-engine.js';
import type { AcceptedEmailStatus } from './email-status.pure.js';
import { planSend, type SendInput, type SendPlan } from './send-request.pure.js';

export type { SendInput } from './send-request.pure.js';

/** What accepting mail needs: the pool, the queue this API's mail goes to, and its wake-up. */
export interface SendDeps {
  sql: Sql;
  /** The task queue whose workers deliver this API's mail. */
  deliveryQueue: string;
  queueNotifier: QueueNotifier;
}

export interface SendResult {
  emails: {
    contact: { id: string; email: string };
    email: string;
    status: AcceptedEmailStatus;
  }[];
  timestamp: string;
}

/**
 * Writes an accepted send in one transaction (claiming the Idempotency-Key when given): the
 * attachments once, then each recipient in turn upserted as a contact with its email row, QUEUED
 * or SUPPRESSED.
 */
function writeSend({
  sql,
  deliveryQueue,
  cap,
  projectId,
  plan,
  idempotencyKey,
}: {
  sql: Sql;
  deliveryQueue: string;
  /** The project's transactional cap, when it has one. */
  cap: number | undefined;
  projectId: string;
  plan: SendPlan;
  idempotencyKey?: string;
}): Promise<SendResult['emails']> {
  return withIdempotencyKey({ sql, projectId, key: idempotencyKey, scope: 'send' }, async (tx) => {
    if (cap !== undefined) {
      const count = plan.recipients.length;
      await chargeCap({ tx, projectId, category: 'transactional', count, cap });
    }
    const attachments = plan.attachments.map((a) => ({
      id: newId(),
      filename: a.filename,
      content_type: a.contentType,
      content_id: a.contentId ?? null,
      disposition: a.disposition,
      content: a.content.replace(/\s+/g, ''),
    }));
    await insertAttachments(tx, { projectId, attachments });
    const out: SendResult['emails'] = [];
    // One after another: each recipient's own upsert and email row (spec rule 2).
    for (const recipient of plan.recipients) {
      const queued = await upsertContactAndQueueEmail(tx, {
        projectId,
        defaultSubscribed: false,
        source: 'send',
        contact: {
          id: newId(),
          email: recipient.email,
          subscribed: plan.subscribed,
          set: plan.contactData.set,
          unset: plan.contactData.unset,
          flipEventId: newId(),
        },
        email: {
          id: newId(),
          templateId: plan.templateId,
          domainId: plan.domainId,
          toName: recipient.name,
          fromAddress: plan.fromAddress,
          fromName: plan.fromName,
          replyTo: plan.replyTo,
          subject: plan.subject,
          body: plan.body,
          type: plan.type,
          headers: plan.headers,
          variables: plan.variables,
          attachmentIds: attachments.map((a) => a.id),
          deliveryQueue,
          tracking: plan.tracking,
        },
      });
      out.push({
        contact: { id: queued.contact_id, email: queued.email },
        email: queued.email_id,
        status: queued.status,
      });
    }
    return out;
  });
}

/**
 * Everything that can be refused is refused before anything is written (see planSend). Then the
 * send is written (writeSend); committed, a queued email is durably accepted, and the delivery
 * lanes of its queue are woken to deliver it (see delivery-lane.service.ts).
 */
export async function sendEmails({
  sql,
  deliveryQueue,
  queueNotifier,
  projectId,
  input,
  idempotencyKey,
}: SendDeps & {
  projectId: string;
  input: SendInput;
  idempotencyKey?: string;
}): Promise<SendResult> {
  // The project's transactional cap comes with the context: one round trip fewer a send.
  const { template, verifiedDomains, cap } = await findSendContext(sql, {
    projectId,
    templateId: input.templateId,
    capCategory: 'transactional',
  });
  if (input.templateId && !template) throw notFound('Template');
  const planned = planSend({
    input,
    template: template && {
      id: template.id,
      type: template.type,
      subject: template.subject,
      body: template.body,
      fromAddress: template.from_address,
      fromName: template.from_name,
      replyTo: template.reply_to,
    },
    verifiedDomains,
    syntaxProblems: templateProblems,
  });
  if ('errors' in planned) throw validationError(planned.errors);
  const { plan } = planned;

  // All recipients commit together (with the key claim, attachments and the cap's count) or not
  // at all; one recipient with nothing else to write is a single statement, atomic by itself.
  const single =
    plan.recipients.length === 1 &&
    plan.attachments.length === 0 &&
    !idempotencyKey &&
    cap === undefined;
  const write = (outer: Sql) =>
    writeSend({ sql: outer, deliveryQueue, cap, projectId, plan, idempotencyKey });
  const written = single ? await write(sql) : await sql.transaction(write);
  if (written.some((w) => w.status === 'QUEUED')) queueNotifier.queued(deliveryQueue);
  return { emails: written, timestamp: new Date().toISOString() };
}
