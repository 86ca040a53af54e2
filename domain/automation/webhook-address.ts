import ipaddr from 'ipaddr.js';

/**
 * Why a WEBHOOK may not connect to `address` (an IP literal), or undefined when it may: only
 * public unicast addresses are allowed. Refused: loopback, private (RFC 1918, unique local),
 * link-local (which holds the cloud metadata address 169.254.169.254), carrier-grade NAT,
 * multicast, unspecified, broadcast and reserved ranges, and IPv6 forms that embed an IPv4
 * address (IPv4-mapped, 6to4, Teredo, NAT64), which could reach any of those.
 */
export function refusedAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  return `${address} is a ${range} address; webhooks reach public addresses only (WEBHOOK_ALLOW_PRIVATE allows others)`;
}
