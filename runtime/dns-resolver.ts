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
  async function ask<T>(name: string, query: () => Promise<T[]>): Promise<T[]> {
    try {
      return await query();
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (ABSENT.has(code)) return [];
      throw new DnsUnavailableError(`DNS lookup of ${name} failed: ${code || String(error)}`);
    }
  }
  return {
    resolveTxt: (name) => ask(name, () => resolver.resolveTxt(name)),
    resolveMx: (name) => ask(name, () => resolver.resolveMx(name)),
    resolveNs: (name) => ask(name, () => resolver.resolveNs(name)),
    resolveAddresses: async (name) => {
      const [v4, v6] = await Promise.all([
        ask(name, () => resolver.resolve4(name)),
        ask(name, () => resolver.resolve6(name)),
      ]);
      return [...v4, ...v6];
    },
  };
}
