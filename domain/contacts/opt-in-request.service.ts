import {
  upsertContacts,
  type ContactUpsertResult,
  type ContactUpsertRow,
} from '../../db/sql/contact-upsert.sql.js';
import {
  askForConfirmation,
  findConfirmationContext,
  type ConfirmationContext,
  type ConfirmationEmailRow,
} from '../../db/sql/double-opt-in.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { matchSenderDomain } from '../domains/sender-domain.pure.js';
import { conflict } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { QueueNotifier } from '../shared/ports.js';
import { BUILT_IN_CONFIRMATION, BUILT_IN_SENDER_LOCAL_PART } from './confirmation-email.pure.js';
import { getColumnSetting } from '../projects/column-settings.service.js';

/**
 * Where a confirmation email goes: the task queue whose workers deliver this API's mail, and its
 * wake-up. (Its link is made as it is delivered.)
 */
export interface OptInMail {
  deliveryQueue: string;
  queueNotifier: QueueNotifier;
}

/** Whether the project asks contacts who subscribe through the public key to confirm. */
export async function confirmationRequired({
  sql,
  projectId,
}: {
  sql: Sql;
  projectId: string;
}): Promise<boolean> {
  return (await getColumnSetting({ sql, projectId, setting: 'double_opt_in' })).enabled;
}

/**
 * The confirmation email's content and sender: the project's chosen template while it exists and
 * sends from a verified domain, else the built-in email from `no-reply@` the oldest verified
 * domain. None (no verified domain left) is a 409: the contact could never confirm.
 */
function confirmationContent(
  context: ConfirmationContext,
): Omit<ConfirmationEmailRow, 'id' | 'variables' | 'deliveryQueue'> {
  const { template, verifiedDomains, projectName } = context;
  const templateDomain = template && matchSenderDomain(verifiedDomains, template.from_address);
  if (template && templateDomain) {
    return {
      templateId: template.id,
      domainId: templateDomain.id,
      fromAddress: template.from_address,
      fromName: template.from_name,
      replyTo: template.reply_to,
      subject: template.subject,
      body: template.body,
    };
  }
  const [first] = verifiedDomains;
  if (!first) {
    throw conflict(
      'Double opt-in is on, but the project has no verified domain to send the confirmation email from',
      'Verify a sending domain, or turn double opt-in off (PUT /double-opt-in).',
    );
  }
  return {
    templateId: null,
    domainId: first.id,
    fromAddress: `${BUILT_IN_SENDER_LOCAL_PART}@${first.domain}`,
    fromName: projectName,
    replyTo: null,
    subject: BUILT_IN_CONFIRMATION.subject,
    body: BUILT_IN_CONFIRMATION.body,
  };
}

/**
 * Asks a contact to confirm its subscription: marks it as waiting and writes the confirmation
 * email to the outbox. Nothing happens when it is subscribed, or already waits and `resend` is
 * false. Answers whether an email was queued (the caller wakes the delivery lanes once it has
 * committed).
 */
export async function requestConfirmation({
  sql,
  mail,
  projectId,
  contactId,
  resend,
}: {
  sql: Sql;
  mail: OptInMail;
  projectId: string;
  contactId: string;
  resend: boolean;
}): Promise<{ queued: boolean }> {
  const context = await findConfirmationContext(sql, { projectId });
  if (!context) return { queued: false };
  const email = await askForConfirmation(sql, {
    projectId,
    contactId,
    resend,
    email: {
      id: newId(),
      ...confirmationContent(context),
      // `confirmUrl` is made as the email is delivered, like the subscription links.
      variables: { projectName: context.projectName },
      deliveryQueue: mail.deliveryQueue,
    },
  });
  return { queued: email?.status === 'QUEUED' };
}

/**
 * Creates or updates a contact (data rules; `contact.subscribed` must be null: the subscription
 * waits for the confirmation) and, when `asks` says this write asks to subscribe it, asks it to
 * confirm; in one transaction.
 */
export async function upsertAskingConfirmation({
  sql,
  mail,
  projectId,
  contact,
  source,
  event,
  asks,
  resend,
}: {
  sql: Sql;
  mail: OptInMail;
  projectId: string;
  contact: Omit<ContactUpsertRow, 'subscribed' | 'event'>;
  source: string;
  event?: ContactUpsertRow['event'];
  asks: (row: ContactUpsertResult) => boolean;
  resend: boolean;
}): Promise<{ row: ContactUpsertResult; confirmationQueued: boolean }> {
  return sql.transaction(async (tx) => {
    const [row] = await upsertContacts(tx, {
      projectId,
      defaultSubscribed: false,
      source,
      rows: [{ ...contact, subscribed: null, event }],
    });
    if (!row) throw new Error('The contact upsert returned no row');
    if (row.subscribed || !asks(row)) return { row, confirmationQueued: false };
    const { queued } = await requestConfirmation({
      sql: tx,
      mail,
      projectId,
      contactId: row.id,
      resend,
    });
    return { row, confirmationQueued: queued };
  });
}
