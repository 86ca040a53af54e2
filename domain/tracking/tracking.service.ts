import type { Sql } from '../../db/sql/sql.js';
import { getContact, updateContact } from '../contacts/contacts.service.js';
import type { ContactView } from '../contacts/contact-view.js';
import { recordEmailEvent, type EmailEventSource } from '../sending/email-events.js';
import { notFound } from '../shared/errors.js';
import { readLinkToken } from './tokens.js';

async function emailOf(sql: Sql, emailId: string): Promise<EmailEventSource> {
  const [email] = await sql.query<EmailEventSource>(
    'SELECT id, project_id, contact_id, subject, template_id, message_id FROM emails WHERE id = $1',
    [emailId],
  );
  if (!email) throw notFound('Link');
  return email;
}

/** The open pixel was fetched: record email.opened. A forged or changed token is a 404. */
export async function recordOpen({
  sql,
  token,
  secret,
}: {
  sql: Sql;
  token: string;
  secret: string;
}): Promise<void> {
  const payload = readLinkToken(token, secret);
  if (payload?.k !== 'o') throw notFound('Link');
  await recordEmailEvent(sql, await emailOf(sql, payload.e), 'email.opened');
}

/**
 * A tracked link was followed: record email.clicked and answer where to go. The target comes
 * from the signed token, so only URLs that were in the email can be reached this way.
 */
export async function followClick({
  sql,
  token,
  secret,
}: {
  sql: Sql;
  token: string;
  secret: string;
}): Promise<string> {
  const payload = readLinkToken(token, secret);
  if (payload?.k !== 'c' || !/^https?:\/\//.test(payload.u)) throw notFound('Link');
  await recordEmailEvent(sql, await emailOf(sql, payload.e), 'email.clicked', { link: payload.u });
  return payload.u;
}

function subscriptionOf(token: string, secret: string): { contactId: string; projectId: string } {
  const payload = readLinkToken(token, secret);
  if (payload?.k !== 'u') throw notFound('Link');
  return { contactId: payload.c, projectId: payload.p };
}

export async function subscriptionState({
  sql,
  token,
  secret,
}: {
  sql: Sql;
  token: string;
  secret: string;
}): Promise<ContactView> {
  const { contactId, projectId } = subscriptionOf(token, secret);
  return getContact({ sql, projectId, contactId });
}

/** Unsubscribe (or resubscribe) from an email link; repeating it changes nothing more. */
export async function setSubscription({
  sql,
  token,
  secret,
  subscribed,
}: {
  sql: Sql;
  token: string;
  secret: string;
  subscribed: boolean;
}): Promise<ContactView> {
  const { contactId, projectId } = subscriptionOf(token, secret);
  return updateContact({
    sql,
    projectId,
    contactId,
    subscribed,
    source: subscribed ? 'subscribe-link' : 'unsubscribe-link',
  });
}
