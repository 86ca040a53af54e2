import { signLinkToken } from '../tracking/tokens.js';
import { CONFIRMATION_LINK_DAYS } from './double-opt-in-settings.pure.js';

const DAY_SECONDS = 24 * 60 * 60;

/**
 * The link that confirms a contact's subscription (double opt-in): signed like every link in an
 * email, naming the contact and its project, working for 7 days from `now`. Made as an email is
 * delivered (the `confirmUrl` template variable), never stored.
 */
export function confirmationLink({
  secret,
  publicUrl,
  projectId,
  contactId,
  now = Date.now(),
}: {
  secret: string;
  publicUrl: string;
  projectId: string;
  contactId: string;
  now?: number;
}): string {
  const expires = Math.floor(now / 1000) + CONFIRMATION_LINK_DAYS * DAY_SECONDS;
  const token = signLinkToken({ k: 'd', c: contactId, p: projectId, x: expires }, secret);
  return `${publicUrl}/confirm-subscription/${token}`;
}
