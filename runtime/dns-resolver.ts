import { Resolver } from 'node:dns/promises';
import { DnsUnavailableError, type DnsResolver } from '../domain/shared/ports.js';

const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

/** node's resolver, pointed at DNS_SERVERS when set, with a timeout per query. */
export function createDnsResolver({
  servers,
  timeoutMs,
}: {
  servers: string[];
  timeoutMs: number;
}): DnsResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  return {
    async resolveTxt(name: string): Promise<string[][]> {
      try {
        return await resolver.resolveTxt(name);
      } catch (error) {
        const code = (error as { code?: string }).code ?? '';
        if (ABSENT.has(code)) return [];
        throw new DnsUnavailableError(`DNS lookup of ${name} failed: ${code || String(error)}`);
      }
    },
  };
}
