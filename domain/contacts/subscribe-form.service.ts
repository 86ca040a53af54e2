import { upsertContacts } from '../../db/sql/contact-upsert.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { subscribeBuckets, takeAttempt } from '../accounts/auth-throttle.service.js';
import { contactWrite } from './contact-write.js';
import { sortData } from './data-rules.pure.js';
import {
  confirmationRequired,
  upsertAskingConfirmation,
  type OptInMail,
} from './opt-in-request.service.js';

export interface SubscribeInput {
  email: string;
  data?: Record<string, unknown>;
}

export interface SubscribeResult {
  contact: string;
  /**
   * The project asks for a confirmation (double opt-in): a form says "check your inbox". It is
   * the project's setting, never the address's state, so a public answer does not tell whether
   * an address is on the list already.
   */
  confirmationRequired: boolean;
  timestamp: string;
}

/**
 * A signup form's subscription (POST /v1/subscribe). Without double opt-in the contact is
 * subscribed (a flip records contact.subscribed, `source: subscribe-form`). With it, a contact
 * that is not subscribed is asked to confirm, again each time it signs up while it waits, and is
 * subscribed only by the link. `throttleIp`: the public key's caller, whose requests are
 * counted per project and address (20 an hour, AUTH_LIMITS.subscribeRequestsPerIp).
 */
export async function subscribeFromForm({
  sql,
  mail,
  projectId,
  input,
  throttleIp,
}: {
  sql: Sql;
  mail: OptInMail;
  projectId: string;
  input: SubscribeInput;
  throttleIp?: string;
}): Promise<SubscribeResult> {
  if (throttleIp !== undefined) await takeAttempt(sql, subscribeBuckets(projectId, throttleIp));
  const required = await confirmationRequired({ sql, projectId });
  const contact = contactWrite({ email: input.email, data: sortData(input.data) });
  const source = 'subscribe-form';
  if (!required) {
    const [row] = await upsertContacts(sql, {
      projectId,
      defaultSubscribed: true,
      source,
      rows: [{ ...contact, subscribed: true }],
    });
    if (!row) throw new Error('The contact upsert returned no row');
    return {
      contact: row.id,
      confirmationRequired: false,
      timestamp: new Date(row.updated_at).toISOString(),
    };
  }
  const { row, confirmationQueued } = await upsertAskingConfirmation({
    sql,
    mail,
    projectId,
    contact,
    source,
    asks: () => true,
    resend: true,
  });
  if (confirmationQueued) mail.queueNotifier.queued(mail.deliveryQueue);
  return {
    contact: row.id,
    confirmationRequired: true,
    timestamp: new Date(row.updated_at).toISOString(),
  };
}
