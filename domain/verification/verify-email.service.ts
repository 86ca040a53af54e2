import { POPULAR_DOMAINS, run as suggestSpelling } from '@zootools/email-spell-checker';
import { isDisposableEmailDomain } from 'disposable-email-domains-js';
import freeEmailDomains from 'free-email-domains';
import { DnsUnavailableError, type DnsResolver } from '../shared/ports.js';
import { isAlias, isPlusAddressed, splitAddress } from './address-checks.pure.js';

const FREE_PROVIDERS = new Set<string>(freeEmailDomains);
// A typo is a near miss of a common provider, not any domain the suggester could respell.
const COMMON_PROVIDERS = new Set<string>(POPULAR_DOMAINS);

export interface VerificationResult {
  email: string;
  valid: boolean;
  isDisposable: boolean;
  isAlias: boolean;
  isTypo: boolean;
  isPlusAddressed: boolean;
  isPersonalEmail: boolean;
  domainExists: boolean;
  hasWebsite: boolean;
  hasMxRecords: boolean;
  suggestion?: string;
  reasons: string[];
}

/**
 * Checks an address: syntax, maintained disposable and free-mail lists, a typo suggester, and
 * DNS (MX, with an A/AAAA fallback; any record for the domain; a website on the domain or www).
 * An unreachable resolver answers valid:false with `dns_unavailable`, never an error.
 */
export async function verifyEmailAddress({
  email,
  dns,
}: {
  email: string;
  dns: DnsResolver;
}): Promise<VerificationResult> {
  const trimmed = email.trim();
  const parts = splitAddress(trimmed);
  const result: VerificationResult = {
    email: trimmed,
    valid: false,
    isDisposable: false,
    isAlias: false,
    isTypo: false,
    isPlusAddressed: false,
    isPersonalEmail: false,
    domainExists: false,
    hasWebsite: false,
    hasMxRecords: false,
    reasons: [],
  };
  if (!parts) {
    result.reasons.push('invalid_syntax');
    return result;
  }
  result.isDisposable = isDisposableEmailDomain(parts.domain);
  result.isPersonalEmail = FREE_PROVIDERS.has(parts.domain);
  result.isPlusAddressed = isPlusAddressed(parts);
  result.isAlias = isAlias(parts);
  const suggestion = suggestSpelling({ email: `${parts.local}@${parts.domain}` });
  if (suggestion && suggestion.domain !== parts.domain && COMMON_PROVIDERS.has(suggestion.domain)) {
    result.isTypo = true;
    result.suggestion = suggestion.full;
  }

  let reachable = false;
  try {
    const [mx, addresses, wwwAddresses, ns, txt] = await Promise.all([
      dns.resolveMx(parts.domain),
      dns.resolveAddresses(parts.domain),
      dns.resolveAddresses(`www.${parts.domain}`),
      dns.resolveNs(parts.domain),
      dns.resolveTxt(parts.domain),
    ]);
    result.hasMxRecords = mx.some((m) => m.exchange !== '' && m.exchange !== '.');
    result.hasWebsite = addresses.length > 0 || wwwAddresses.length > 0;
    result.domainExists = mx.length > 0 || addresses.length > 0 || ns.length > 0 || txt.length > 0;
    // No MX record: mail goes to the domain's own address (RFC 5321 implicit MX).
    reachable = result.hasMxRecords || addresses.length > 0;
    if (!result.hasMxRecords) result.reasons.push('no_mx_records');
    if (!result.domainExists) result.reasons.push('domain_not_found');
  } catch (error) {
    if (!(error instanceof DnsUnavailableError)) throw error;
    result.reasons.push('dns_unavailable');
  }
  if (result.isDisposable) result.reasons.push('disposable_domain');
  if (result.isTypo) result.reasons.push('possible_typo');
  result.valid = reachable && !result.isDisposable;
  return result;
}
