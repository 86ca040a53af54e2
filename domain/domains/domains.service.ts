import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Domain, Template } from '../../db/entities/index.js';
import { encryptSecret } from '../shared/encryption.js';
import { conflict, requireFound, validationError, type DomainError } from '../shared/errors.js';
import { DnsUnavailableError, type DnsResolver, type Em } from '../shared/ports.js';
import { randomBase62 } from '../shared/secrets.js';
import { matchSenderDomain, unverifiedSenderProblem } from './sender-domain.pure.js';
import {
  dkimMatches,
  dkimRecordName,
  dmarcPresent,
  joinTxt,
  normaliseDomain,
  requiredRecords,
  spfIncludes,
  mxPointsAt,
  returnPathHost,
  type DnsRecord,
  type RecordPurpose,
} from './dns-records.pure.js';
import type { DomainStatus } from './domain-status.pure.js';

/** What sending domains need from the installation. */
export interface DomainSettings {
  /** Encrypts each domain's DKIM private key at rest. */
  encryptionKey: string;
  /** The host customers' SPF records must include. */
  spfInclude: string;
  dns: DnsResolver;
  /** The host inbound mail goes to; the records advise an MX for it and report whether it is set. */
  mxHost?: string;
  /** The return-path host's first label (RETURN_PATH_PREFIX); its records need `mxHost`. */
  returnPathPrefix?: string;
}

type RecordSettings = Pick<DomainSettings, 'spfInclude' | 'mxHost' | 'returnPathPrefix'>;
/** A use case's reach: the caller's project, through its entity manager. */
type ProjectScope = { em: Em; projectId: string };

export interface DomainView {
  id: string;
  domain: string;
  status: DomainStatus;
  verified: boolean;
  records: (DnsRecord & { verified: boolean })[];
  lastError: string | null;
  lastCheckedAt: string | null;
  verifiedAt: string | null;
  createdAt: string;
}

/** Whether the last check found each kind of record as it must be. */
const RECORD_VERIFIED = {
  dkim: (domain) => domain.dkimVerified,
  spf: (domain) => domain.spfVerified,
  dmarc: (domain) => domain.dmarcVerified,
  inbound: (domain) => domain.mxVerified,
  return_path: (domain, record) =>
    record.type === 'MX' ? domain.returnPathHost === record.name : domain.returnPathSpfVerified,
} satisfies Record<RecordPurpose, (domain: Domain, record: DnsRecord) => boolean>;

function toDomainView(
  domain: Domain,
  { spfInclude, mxHost, returnPathPrefix }: RecordSettings,
): DomainView {
  return {
    id: domain.id,
    domain: domain.domain,
    status: domain.status,
    verified: domain.status === 'VERIFIED',
    records: requiredRecords({
      domain: domain.domain,
      selector: domain.selector,
      publicKey: domain.dkimPublicKey,
      spfInclude,
      mxHost,
      returnPathPrefix,
    }).map((record) => ({ ...record, verified: RECORD_VERIFIED[record.purpose](domain, record) })),
    lastError: domain.lastError ?? null,
    lastCheckedAt: domain.lastCheckedAt ? domain.lastCheckedAt.toISOString() : null,
    verifiedAt: domain.verifiedAt ? domain.verifiedAt.toISOString() : null,
    createdAt: domain.createdAt.toISOString(),
  };
}

const generateRsa = promisify(generateKeyPair);

/** A 2048-bit RSA pair: the public key as the DKIM record's base64, the private key as PEM. */
async function dkimKeyPair(): Promise<{ publicKey: string; privateKey: string }> {
  const { publicKey, privateKey } = await generateRsa('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: (publicKey as Buffer).toString('base64'), privateKey: privateKey as string };
}

/** Makes the domain's DKIM key pair and answers the DNS records to publish. */
export async function addDomain({
  em,
  encryptionKey,
  spfInclude,
  mxHost,
  returnPathPrefix,
  projectId,
  domain: input,
}: Pick<DomainSettings, 'encryptionKey'> &
  RecordSettings &
  ProjectScope & { domain: string }): Promise<DomainView> {
  const name = normaliseDomain(input);
  if (!name) {
    throw validationError({
      field: 'domain',
      message: 'Give a domain name such as mail.example.com',
      code: 'invalid_domain',
    });
  }
  const keys = await dkimKeyPair();
  const domain = em.create(Domain, {
    project: projectId,
    domain: name,
    selector: `mw${randomBase62(6).toLowerCase()}`,
    dkimPublicKey: keys.publicKey,
    dkimPrivateKey: encryptSecret(keys.privateKey, encryptionKey),
    status: 'PENDING',
  });
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw conflict(
        `${name} is already added to a project`,
        'A domain can send for one project only.',
      );
    }
    throw error;
  }
  return toDomainView(domain, { spfInclude, mxHost, returnPathPrefix });
}

export async function listDomains({
  em,
  spfInclude,
  mxHost,
  returnPathPrefix,
  projectId,
}: RecordSettings & {
  em: Em;
  projectId: string;
}): Promise<DomainView[]> {
  const domains = await em.find(Domain, { project: projectId }, { orderBy: { createdAt: 'asc' } });
  return domains.map((d) => toDomainView(d, { spfInclude, mxHost, returnPathPrefix }));
}

async function findDomain(em: Em, projectId: string, domainId: string): Promise<Domain> {
  return requireFound(await em.findOne(Domain, { id: domainId, project: projectId }), 'Domain');
}

/**
 * Looks the records up now. Verified needs the DKIM key and our SPF include; DMARC is only
 * reported. A verified domain whose records are gone is flagged FAILED; an unreachable resolver
 * changes nothing but `lastError`.
 */
export async function checkDomainDns({
  em,
  domain,
  dns,
  spfInclude,
  mxHost,
  returnPathPrefix,
  now = new Date(),
}: RecordSettings & {
  em: Em;
  domain: Domain;
  dns: DnsResolver;
  now?: Date;
}): Promise<Domain> {
  domain.lastCheckedAt = now;
  const rpHost =
    mxHost && returnPathPrefix
      ? returnPathHost({ prefix: returnPathPrefix, domain: domain.domain })
      : undefined;
  try {
    const [dkim, spf, dmarc, mx, rpMx, rpSpf] = await Promise.all([
      dns.resolveTxt(dkimRecordName(domain.selector, domain.domain)),
      dns.resolveTxt(domain.domain),
      dns.resolveTxt(`_dmarc.${domain.domain}`),
      mxHost ? dns.resolveMx(domain.domain) : Promise.resolve([]),
      rpHost ? dns.resolveMx(rpHost) : Promise.resolve([]),
      rpHost ? dns.resolveTxt(rpHost) : Promise.resolve([]),
    ]);
    domain.mxVerified = mxHost ? mxPointsAt(mx, mxHost) : domain.mxVerified;
    // The MX and SPF of the return path are reported, never needed to verify the domain; until
    // its MX names us, mail keeps the From address as its envelope sender.
    if (rpHost && mxHost) {
      domain.returnPathHost = mxPointsAt(rpMx, mxHost) ? rpHost : null;
      domain.returnPathSpfVerified = spfIncludes(joinTxt(rpSpf), spfInclude);
    }
    domain.dkimVerified = dkimMatches(joinTxt(dkim), domain.dkimPublicKey);
    domain.spfVerified = spfIncludes(joinTxt(spf), spfInclude);
    domain.dmarcVerified = dmarcPresent(joinTxt(dmarc));
    const ok = domain.dkimVerified && domain.spfVerified;
    if (ok) {
      domain.status = 'VERIFIED';
      domain.verifiedAt ??= now;
      domain.lastError = null;
    } else {
      const missing = [!domain.dkimVerified && 'DKIM', !domain.spfVerified && 'SPF']
        .filter(Boolean)
        .join(' and ');
      domain.lastError = `${missing} record not found or not matching`;
      if (domain.status === 'VERIFIED') domain.status = 'FAILED';
    }
  } catch (error) {
    if (!(error instanceof DnsUnavailableError)) throw error;
    domain.lastError = error.message;
  }
  await em.flush();
  return domain;
}

/** Looks the domain's records up now and answers the domain as it then stands. */
export async function verifyDomainNow({
  em,
  dns,
  spfInclude,
  mxHost,
  returnPathPrefix,
  projectId,
  domainId,
}: Pick<DomainSettings, 'dns'> &
  RecordSettings &
  ProjectScope & { domainId: string }): Promise<DomainView> {
  const domain = await findDomain(em, projectId, domainId);
  const settings = { spfInclude, mxHost, returnPathPrefix };
  return toDomainView(await checkDomainDns({ em, dns, ...settings, domain }), settings);
}

/** The scheduled re-check: every domain, least recently checked first, a bounded batch a run. */
export async function recheckDomains({
  em,
  dns,
  spfInclude,
  mxHost,
  returnPathPrefix,
  batch = 500,
}: RecordSettings & {
  em: Em;
  dns: DnsResolver;
  batch?: number;
}): Promise<{ checked: number; verified: number }> {
  const domains = await em.find(
    Domain,
    {},
    { orderBy: { lastCheckedAt: 'asc nulls first' }, limit: batch },
  );
  let verified = 0;
  for (const domain of domains) {
    await checkDomainDns({ em, domain, dns, spfInclude, mxHost, returnPathPrefix });
    if (domain.status === 'VERIFIED') verified += 1;
  }
  return { checked: domains.length, verified };
}

export async function deleteDomain({
  em,
  projectId,
  domainId,
}: {
  em: Em;
  projectId: string;
  domainId: string;
}): Promise<void> {
  const domain = await findDomain(em, projectId, domainId);
  const senders = await em.count(Template, {
    project: projectId,
    $or: [{ from: { $ilike: `%@${domain.domain}` } }, { from: { $ilike: `%.${domain.domain}` } }],
  });
  if (senders > 0) {
    throw conflict(
      `${senders} template(s) send from ${domain.domain}`,
      'Change or delete those templates first.',
    );
  }
  await em.removeAndFlush(domain);
}

/**
 * Mail leaves only from a verified domain of the project: the sender's domain, or a parent of
 * it (DKIM for example.com covers news.example.com under relaxed alignment).
 */
export async function requireVerifiedSender({
  em,
  projectId,
  from,
  field = 'from',
}: {
  em: Em;
  projectId: string;
  from: string;
  field?: string;
}): Promise<Domain> {
  const verified = await em.find(Domain, { project: projectId, status: 'VERIFIED' });
  const match = matchSenderDomain(verified, from);
  if (!match) throw unverifiedSender(from, field);
  return match;
}

/** The 422 for a sender address on no verified domain of the project. */
export function unverifiedSender(from: string, field = 'from'): DomainError {
  return validationError(unverifiedSenderProblem(from, field));
}
