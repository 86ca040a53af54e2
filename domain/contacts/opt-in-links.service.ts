import { confirmOptIn, findOptInContact } from '../../db/sql/double-opt-in.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { subscribeBuckets, takeAttempt } from '../accounts/auth-throttle.service.js';
import { notFound, requireFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { QueueNotifier } from '../shared/ports.js';
import { readLinkToken } from '../tracking/tokens.js';
import { pageForState, type OptInOutcome } from './opt-in-page.pure.js';
import { requestConfirmation, type OptInMail } from './opt-in-request.service.js';

/**
 * The contact and project a confirmation link names, and whether its 7 days are over. A changed
 * or made-up token is a 404, as for every link in an email.
 */
function readConfirmationToken(
  token: string,
  secret: string,
  now: number,
): { contactId: string; projectId: string; expired: boolean } {
  const payload = readLinkToken(token, secret);
  if (payload?.k !== 'd' || typeof payload.x !== 'number') throw notFound('Link');
  return { contactId: payload.c, projectId: payload.p, expired: payload.x * 1000 <= now };
}

/** The contact a confirmation link names (404 when there is none) and whether it expired. */
async function linkedContact(sql: Sql, link: { secret: string; token: string; now: number }) {
  const { expired, ...ids } = readConfirmationToken(link.token, link.secret, link.now);
  return { ids, expired, contact: requireFound(await findOptInContact(sql, ids), 'Link') };
}

/** What opening a confirmation link shows; it changes nothing. */
export async function confirmationPage({
  sql,
  secret,
  token,
  now = Date.now(),
}: {
  sql: Sql;
  secret: string;
  token: string;
  now?: number;
}): Promise<OptInOutcome> {
  const { expired, contact } = await linkedContact(sql, { secret, token, now });
  return {
    page: pageForState(contact, { expired }),
    email: contact.email,
    projectName: contact.project_name,
  };
}

/**
 * The confirmation: a waiting contact becomes subscribed and its contact.subscribed event is
 * recorded (the dispatcher is woken for the workflows it triggers). Idempotent: a link used
 * again, or for a contact whose subscription changed since, changes nothing and says so. An
 * expired link confirms nothing.
 */
export async function confirmSubscription({
  sql,
  secret,
  token,
  dispatch,
  now = Date.now(),
}: {
  sql: Sql;
  secret: string;
  token: string;
  dispatch: { queue: string; dispatchNotifier: QueueNotifier };
  now?: number;
}): Promise<OptInOutcome> {
  const { expired, ...ids } = readConfirmationToken(token, secret, now);
  if (expired) return confirmationPage({ sql, secret, token, now });
  const row = requireFound(await confirmOptIn(sql, { ...ids, eventId: newId() }), 'Link');
  if (row.confirmed) dispatch.dispatchNotifier.queued(dispatch.queue);
  return {
    page: row.confirmed ? 'confirmed' : pageForState(row, { expired }),
    email: row.email,
    projectName: row.project_name,
  };
}

/**
 * A new confirmation email for a contact that still waits (asked for from an expired link's
 * page), counted with the signup form's requests from the client's address. A contact that no
 * longer waits gets none, and the page says why.
 */
export async function resendConfirmation({
  sql,
  mail,
  secret,
  token,
  clientIp,
  now = Date.now(),
}: {
  sql: Sql;
  mail: OptInMail;
  secret: string;
  token: string;
  clientIp: string;
  now?: number;
}): Promise<OptInOutcome> {
  const { ids, expired, contact } = await linkedContact(sql, { secret, token, now });
  const outcome = { email: contact.email, projectName: contact.project_name };
  if (!contact.pending) return { ...outcome, page: pageForState(contact, { expired }) };
  await takeAttempt(sql, subscribeBuckets(ids.projectId, clientIp));
  const { queued } = await sql.transaction((tx) =>
    requestConfirmation({ sql: tx, mail, ...ids, resend: true }),
  );
  if (queued) mail.queueNotifier.queued(mail.deliveryQueue);
  return { ...outcome, page: 'new-link-sent' };
}
