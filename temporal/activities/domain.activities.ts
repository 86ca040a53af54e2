import type { Orm } from '../../db/orm.js';
import { recheckDomains } from '../../domain/domains/domains.service.js';
import type { DnsResolver } from '../../domain/shared/ports.js';

export function createDomainActivities({
  orm,
  dns,
  spfInclude,
  mxHost,
  returnPathPrefix,
}: {
  orm: Orm;
  dns: DnsResolver;
  spfInclude: string;
  /** The inbound host whose MX the re-check reports; none when this installation takes no mail. */
  mxHost?: string;
  returnPathPrefix?: string;
}) {
  return {
    async recheckDomains(): Promise<{ checked: number; verified: number }> {
      return recheckDomains({
        em: orm.em.fork(),
        dns,
        spfInclude,
        mxHost,
        returnPathPrefix,
      });
    },
  };
}
