import { isIP } from 'node:net';
import { refusedAddressReason } from '../automation/webhook-address.js';
import { DomainError } from '../shared/errors.js';
import { DnsUnavailableError, type DnsResolver } from '../shared/ports.js';

const refused = (message: string, code: string): DomainError =>
  new DomainError('BAD_REQUEST', message, { errors: [{ field: 'url', message, code }] });

/**
 * An endpoint URL as it is stored, or a 400 naming what is wrong with it: it must be http(s),
 * carry no credentials, and (unless `allowPrivate`) name a host whose addresses are all public.
 * A host the resolver cannot look up now is taken: every delivery resolves it again, pinned to
 * the address it checked (runtime/webhook-sender.ts), so a later change of its DNS gains nothing.
 */
export async function checkEndpointUrl({
  url,
  dns,
  allowPrivate,
}: {
  url: string;
  dns: DnsResolver;
  allowPrivate: boolean;
}): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused('The URL is not a valid absolute URL', 'invalid_url');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw refused(`${parsed.protocol} URLs are not allowed; use http or https`, 'invalid_url');
  }
  if (parsed.username || parsed.password) {
    throw refused('The URL may not carry a user name or password', 'invalid_url');
  }
  if (allowPrivate) return parsed.href;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host.endsWith('.localhost')) {
    throw refused(
      `${host} is a loopback address; webhooks reach public addresses only`,
      'refused_address',
    );
  }
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await dns.resolveAddresses(host);
    } catch (error) {
      if (error instanceof DnsUnavailableError) return parsed.href;
      throw error;
    }
    if (addresses.length === 0) throw refused(`${host} has no address`, 'unknown_host');
  }
  for (const address of addresses) {
    const reason = refusedAddressReason(address);
    if (reason) throw refused(reason, 'refused_address');
  }
  return parsed.href;
}
