import ipaddr from 'ipaddr.js';

// ipaddr.js's names for the ranges a webhook may not reach, in words.
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT',
  private: 'a private',
  uniqueLocal: 'a unique local (private)',
  ipv4Mapped: 'an IPv4-mapped',
  rfc6145: 'an IPv4-translated',
  rfc6052: 'a NAT64',
  '6to4': 'a 6to4',
  teredo: 'a Teredo',
  reserved: 'a reserved',
};

/**
 * Why a WEBHOOK may not connect to `address` (an IP literal), or undefined when it may: only
 * public unicast addresses are allowed. Refused: loopback, private (RFC 1918, unique local),
 * link-local (which holds the cloud metadata address 169.254.169.254), carrier-grade NAT,
 * multicast, unspecified, broadcast and reserved ranges, and IPv6 forms that embed an IPv4
 * address (IPv4-mapped, 6to4, Teredo, NAT64), which could reach any of those.
 */
export function refusedAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.parse(address).range();
  if (range === 'unicast') return undefined;
  const words = RANGE_WORDS[range] ?? `a ${range}`;
  return `${address} is ${words} address; webhooks reach public addresses only (unless WEBHOOK_ALLOW_PRIVATE is on)`;
}
