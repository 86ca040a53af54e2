// The DNS records a sending domain needs, and how to read what DNS answers.

export const RECORD_PURPOSES = ['dkim', 'spf', 'dmarc', 'inbound', 'return_path'] as const;
export type RecordPurpose = (typeof RECORD_PURPOSES)[number];

export const RECORD_TYPES = ['TXT', 'MX'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface DnsRecord {
  type: RecordType;
  name: string;
  value: string;
  purpose: RecordPurpose;
  required: boolean;
}

const HOSTNAME =
  /^(?=.{4,253}$)(?!-)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A registrable-looking host name, lower case, with a dot and a letter TLD (no IP, no port). */
export function normaliseDomain(input: string): string | undefined {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  return HOSTNAME.test(domain) ? domain : undefined;
}

export function dkimRecordName(selector: string, domain: string): string {
  return `${selector}._domainkey.${domain}`;
}

/** The return-path host of a domain (`<prefix>.<domain>`): where its bounces come back. */
export const returnPathHost = ({ prefix, domain }: { prefix: string; domain: string }): string =>
  `${prefix}.${domain}`;

export const spfValue = (spfInclude: string): string => `v=spf1 include:${spfInclude} ~all`;

export function requiredRecords({
  domain,
  selector,
  publicKey,
  spfInclude,
  mxHost,
  returnPathPrefix,
}: {
  domain: string;
  selector: string;
  publicKey: string;
  spfInclude: string;
  /** The host that receives inbound mail, when this installation receives any. */
  mxHost?: string;
  /** With `mxHost`: the return-path host's first label, whose MX and SPF are advised too. */
  returnPathPrefix?: string;
}): DnsRecord[] {
  const inbound: DnsRecord[] = mxHost
    ? [{ type: 'MX', name: domain, value: `10 ${mxHost}`, purpose: 'inbound', required: false }]
    : [];
  const rpHost =
    mxHost && returnPathPrefix ? returnPathHost({ prefix: returnPathPrefix, domain }) : undefined;
  const returnPath: DnsRecord[] = rpHost
    ? [
        {
          type: 'MX',
          name: rpHost,
          value: `10 ${mxHost}`,
          purpose: 'return_path',
          required: false,
        },
        {
          type: 'TXT',
          name: rpHost,
          value: spfValue(spfInclude),
          purpose: 'return_path',
          required: false,
        },
      ]
    : [];
  return [
    {
      type: 'TXT',
      name: dkimRecordName(selector, domain),
      value: `v=DKIM1; k=rsa; p=${publicKey}`,
      purpose: 'dkim',
      required: true,
    },
    {
      type: 'TXT',
      name: domain,
      value: spfValue(spfInclude),
      purpose: 'spf',
      required: true,
    },
    {
      type: 'TXT',
      name: `_dmarc.${domain}`,
      value: 'v=DMARC1; p=none;',
      purpose: 'dmarc',
      required: false,
    },
    ...inbound,
    ...returnPath,
  ];
}

/** Whether the domain's MX answers name `mxHost` (inbound mail reaches this installation). */
export function mxPointsAt(answers: { exchange: string }[], mxHost: string): boolean {
  const wanted = mxHost.toLowerCase().replace(/\.$/, '');
  return answers.some((a) => a.exchange.toLowerCase().replace(/\.$/, '') === wanted);
}

/** A TXT answer arrives as character-strings (255 octets at most each); they form one value. */
export function joinTxt(answers: string[][]): string[] {
  return answers.map((chunks) => chunks.join(''));
}

function tags(value: string): Map<string, string> {
  return new Map(
    value
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const at = part.indexOf('=');
        return [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).replace(/\s+/g, '')] as [
          string,
          string,
        ];
      }),
  );
}

export function dkimMatches(values: string[], publicKey: string): boolean {
  return values.some((value) => {
    const t = tags(value);
    return (t.get('v') ?? 'DKIM1') === 'DKIM1' && t.get('p') === publicKey;
  });
}

/** The domain's single SPF record includes ours (several SPF records is itself an SPF error). */
export function spfIncludes(values: string[], spfInclude: string): boolean {
  const spf = values.filter((v) => /^v=spf1(\s|$)/i.test(v.trim()));
  if (spf.length !== 1) return false;
  return (spf[0] as string)
    .toLowerCase()
    .split(/\s+/)
    .some((term) => term.replace(/^[+?~-]/, '') === `include:${spfInclude.toLowerCase()}`);
}

export function dmarcPresent(values: string[]): boolean {
  return values.some((v) => /^v=DMARC1(;|\s|$)/i.test(v.trim()));
}
