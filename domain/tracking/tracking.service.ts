import { noteEmailEngagement, type EmailEventSource } from '../../db/sql/emails.sql.js';
import type { EmailEngagement } from './email-engagement.pure.js';
import type { Sql } from '../../db/sql/sql.js';
import { getContact, updateContact } from '../contacts/contacts.service.js';
import { recordEmailEvent } from '../sending/email-events.js';
import { notFound, requireFound } from '../shared/errors.js';
import { readLinkToken } from './tokens.js';

/** What the links in emails need: the pool, the key that signs them, and where they point. */
export interface LinkSettings {
  sql: Sql;
  /** Signs and checks link tokens (ENCRYPTION_KEY). */
  secret: string;
  publicUrl: string;
}

async function engagedEmail(
  sql: Sql,
  emailId: string,
  engagement: EmailEngagement,
): Promise<EmailEventSource> {
  return requireFound(await noteEmailEngagement(sql, { emailId, engagement }), 'Link');
}

/** A fetch of a tracked link or pixel: its signed token, and what reads it. */
type LinkRequest = Pick<LinkSettings, 'sql' | 'secret'> & { token: string };

/** The open pixel was fetched: record email.opened. A forged or changed token is a 404. */
export async function recordOpen({ sql, secret, token }: LinkRequest): Promise<void> {
  const payload = readLinkToken(token, secret);
  if (payload?.k !== 'o') throw notFound('Link');
  await recordEmailEvent(sql, await engagedEmail(sql, payload.e, 'opened'), 'email.opened');
}

/**
 * A tracked link was followed: record email.clicked and answer where to go. The target comes
 * from the signed token, so only URLs that were in the email can be reached this way.
 */
export async function followClick({ sql, secret, token }: LinkRequest): Promise<string> {
  const payload = readLinkToken(token, secret);
  if (payload?.k !== 'c' || !/^https?:\/\//.test(payload.u)) throw notFound('Link');
  const email = await engagedEmail(sql, payload.e, 'clicked');
  await recordEmailEvent(sql, email, 'email.clicked', { link: payload.u });
  return payload.u;
}

function subscriptionOf(
  token: string,
  secret: string,
): { contactId: string; projectId: string; emailId?: string } {
  const payload = readLinkToken(token, secret);
  if (payload?.k !== 'u') throw notFound('Link');
  return { contactId: payload.c, projectId: payload.p, emailId: payload.e };
}

/** What a subscription page shows: whose it is, its state, and where its buttons post. */
export interface SubscriptionPage {
  email: string;
  subscribed: boolean;
  unsubscribeUrl: string;
  subscribeUrl: string;
}

/** The subscription an email's link stands for; reading it changes nothing. */
export async function subscriptionPage({
  sql,
  secret,
  publicUrl,
  token,
}: LinkSettings & { token: string }): Promise<SubscriptionPage> {
  const { contactId, projectId } = subscriptionOf(token, secret);
  const contact = await getContact({ sql, projectId, contactId });
  return {
    email: contact.email,
    subscribed: contact.subscribed,
    unsubscribeUrl: `${publicUrl}/unsubscribe/${token}`,
    subscribeUrl: `${publicUrl}/subscribe/${token}`,
  };
}

/** Unsubscribe (or resubscribe) from an email link; repeating it changes nothing more. */
export async function setSubscription({
  sql,
  secret,
  token,
  subscribed,
}: Pick<LinkSettings, 'sql' | 'secret'> & {
  token: string;
  subscribed: boolean;
}): Promise<{ email: string; subscribed: boolean }> {
  const { contactId, projectId, emailId } = subscriptionOf(token, secret);
  // The email the link came in is noted (campaign stats count unsubscribes from it).
  if (!subscribed && emailId) {
    await noteEmailEngagement(sql, { emailId, engagement: 'unsubscribed' });
  }
  const contact = await updateContact({
    sql,
    projectId,
    contactId,
    subscribed,
    source: subscribed ? 'subscribe-link' : 'unsubscribe-link',
  });
  return { email: contact.email, subscribed: contact.subscribed };
}
