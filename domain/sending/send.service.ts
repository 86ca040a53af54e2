import { insertAttachments } from '../../db/sql/attachments.sql.js';
import {
  upsertContactsAndQueueEmails,
  type QueuedEmailResult,
  type QueuedSend,
} from '../../db/sql/queue-email.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { chargeCap } from '../billing/billing.service.js';
import { withIdempotencyKey } from '../idempotency/idempotency.service.js';
import { notFound, validationError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { QueueNotifier } from '../shared/ports.js';
import { templateProblems } from '../templates/template-engine.js';
import type { AcceptedEmailStatus } from './email-status.pure.js';
import { planSend, type SendInput, type SendPlan } from './send-request.pure.js';
import type { SendContextRead } from './send-contexts.js';
import type { SendWrites } from './send-writes.js';

export type { SendInput } from './send-request.pure.js';

/** What accepting mail needs: the pool, the queue this API's mail goes to, and its wake-up. */
export interface SendDeps {
  sql: Sql;
  /** The task queue whose workers deliver this API's mail. */
  deliveryQueue: string;
  queueNotifier: QueueNotifier;
  /** The process's shared writer of plain single-recipient sends (see send-writes.ts). */
  writes: SendWrites;
  /** The process's shared reader of what a send reads first (see send-contexts.ts). */
  contexts: SendContextRead;
}

export interface SendResult {
  emails: {
    contact: { id: string; email: string };
    email: string;
    status: AcceptedEmailStatus;
  }[];
  timestamp: string;
}

/** What one recipient of `plan` writes: its contact and its email row. */
function recipientSend({
  plan,
  recipient,
  attachmentIds,
  deliveryQueue,
}: {
  plan: SendPlan;
  recipient: SendPlan['recipients'][number];
  attachmentIds: string[];
  deliveryQueue: string;
}): QueuedSend {
  return {
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
      attachmentIds,
      deliveryQueue,
      tracking: plan.tracking,
    },
  };
}

const answerOf = (queued: QueuedEmailResult): SendResult['emails'][number] => ({
  contact: { id: queued.contact_id, email: queued.email },
  email: queued.email_id,
  status: queued.status,
});

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
    const attachmentIds = attachments.map((a) => a.id);
    const out: SendResult['emails'] = [];
    // One after another: each recipient's own upsert and email row (spec rule 2).
    for (const recipient of plan.recipients) {
      const [queued] = await upsertContactsAndQueueEmails(tx, {
        projectId,
        defaultSubscribed: false,
        source: 'send',
        sends: [recipientSend({ plan, recipient, attachmentIds, deliveryQueue })],
      });
      if (!queued) throw new Error('The contact and email write returned no row');
      out.push(answerOf(queued));
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
  writes,
  contexts,
  projectId,
  input,
  idempotencyKey,
}: SendDeps & {
  projectId: string;
  input: SendInput;
  idempotencyKey?: string;
}): Promise<SendResult> {
  // The project's transactional cap comes with the context, read together with concurrent sends'.
  const { template, verifiedDomains, cap } = await contexts({
    projectId,
    templateId: input.templateId,
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
  // at all; one recipient with nothing else to write is a single statement, atomic by itself,
  // shared with the project's concurrent sends of the same kind.
  const [recipient] = plan.recipients;
  const single =
    recipient !== undefined &&
    plan.recipients.length === 1 &&
    plan.attachments.length === 0 &&
    !idempotencyKey &&
    cap === undefined;
  const written = single
    ? [
        answerOf(
          await writes(
            projectId,
            recipientSend({ plan, recipient, attachmentIds: [], deliveryQueue }),
          ),
        ),
      ]
    : await sql.transaction((tx) =>
        writeSend({ sql: tx, deliveryQueue, cap, projectId, plan, idempotencyKey }),
      );
  if (written.some((w) => w.status === 'QUEUED')) queueNotifier.queued(deliveryQueue);
  return { emails: written, timestamp: new Date().toISOString() };
}
