import { expect } from 'vitest';
import type { DnsServer } from './dns-server.js';
import type { Client } from './http.js';

/** Adds a domain, publishes its records on the test DNS server and verifies it now. */
export async function verifiedDomain(
  api: Client,
  dns: DnsServer,
  key: string,
  name: string,
): Promise<{ id: string; domain: string }> {
  const added = await api.post('/domains', { key, body: { domain: name } });
  expect(added.status, added.text).toBe(201);
  for (const record of added.body.records as { type: string; name: string; value: string }[]) {
    if (record.type === 'MX') {
      const [priority, exchange] = record.value.split(' ');
      dns.publishMx(record.name, exchange as string, Number(priority));
    } else {
      dns.publishTxt(record.name, record.value);
    }
  }
  const verified = await api.get(`/domains/${added.body.id}/verify`, { key });
  expect(verified.body.status, verified.text).toBe('VERIFIED');
  return { id: added.body.id, domain: name };
}

/** A domain name no other test uses, in `zone` (under the reserved .test TLD). */
export const uniqueDomain = (label: string, zone = 'example.test'): string =>
  `${label}-${Math.random().toString(36).slice(2, 8)}.${zone}`;
