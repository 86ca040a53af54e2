import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { newId } from '../../domain/shared/ids.js';
import { DOMAIN_STATUSES } from '../../domain/domains/domain-status.pure.js';
import { Project } from './project.entity.js';

/** A sending domain with its own DKIM key pair (the private key encrypted with ENCRYPTION_KEY). */
export const Domain = defineEntity({
  name: 'Domain',
  tableName: 'domains',
  indexes: [{ properties: ['project', 'createdAt'] }, { properties: ['status', 'lastCheckedAt'] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    // One project per domain: a domain claimed elsewhere is refused.
    domain: p.string().columnType('text').unique(),
    selector: p.string().columnType('text'),
    dkimPublicKey: p.string().columnType('text'),
    dkimPrivateKey: p.string().columnType('text').hidden(),
    status: p.enum([...DOMAIN_STATUSES]),
    dkimVerified: p.boolean().default(false),
    spfVerified: p.boolean().default(false),
    dmarcVerified: p.boolean().default(false),
    mxVerified: p.boolean().default(false),
    // The return-path host (`<prefix>.<domain>`) whose MX was last found naming the inbound host;
    // null until then. Mail from the domain uses it as the envelope sender only once it is set.
    returnPathHost: p.string().columnType('text').nullable(),
    returnPathSpfVerified: p.boolean().default(false),
    lastError: p.string().columnType('text').nullable(),
    lastCheckedAt: p.datetime().nullable(),
    verifiedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Domain = InferEntity<typeof Domain>;
