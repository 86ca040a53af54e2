import { z } from 'zod';

// Mailboxes that belong to a role rather than a person.
const ROLE_ACCOUNTS = new Set([
  'abuse',
  'admin',
  'administrator',
  'billing',
  'contact',
  'hello',
  'help',
  'hostmaster',
  'info',
  'jobs',
  'mail',
  'marketing',
  'newsletter',
  'no-reply',
  'noreply',
  'office',
  'postmaster',
  'privacy',
  'root',
  'sales',
  'security',
  'support',
  'team',
  'webmaster',
]);

// Providers that ignore dots in the local part, so a.b@ and ab@ are one mailbox.
const DOT_BLIND = new Set(['gmail.com', 'googlemail.com']);

export interface AddressParts {
  local: string;
  domain: string;
}

export function splitAddress(email: string): AddressParts | undefined {
  if (!z.email().safeParse(email).success) return undefined;
  const at = email.lastIndexOf('@');
  return { local: email.slice(0, at), domain: email.slice(at + 1).toLowerCase() };
}

export function isPlusAddressed({ local }: AddressParts): boolean {
  const plus = local.indexOf('+');
  return plus > 0 && plus < local.length - 1;
}

/** A role mailbox, or a plus/dot variant of another mailbox. */
export function isAlias(parts: AddressParts): boolean {
  const base = parts.local.toLowerCase().split('+')[0] as string;
  if (ROLE_ACCOUNTS.has(base)) return true;
  if (isPlusAddressed(parts)) return true;
  return DOT_BLIND.has(parts.domain) && parts.local.includes('.');
}
