import { createHash, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { domainToASCII } from 'node:url';

// DKIM (RFC 6376) for the engine's lean messages: rsa-sha256, relaxed/relaxed canonicalization.

const DEFAULT_SIGNED = 'From:Subject:Date:Message-ID:To:MIME-Version:Content-Type';

// PEM text is parsed once; a KeyObject signs several times faster than text parsed per call.
const parsedKeys = new Map<string, KeyObject>();
const PARSED_KEYS_MAX = 100;

function keyObject(key: string | KeyObject): KeyObject {
  if (typeof key !== 'string') return key;
  let parsed = parsedKeys.get(key);
  if (!parsed) {
    parsed = createPrivateKey(key);
    if (parsedKeys.size >= PARSED_KEYS_MAX)
      parsedKeys.delete(parsedKeys.keys().next().value as string);
    parsedKeys.set(key, parsed);
  }
  return parsed;
}

/** Relaxed body canonicalization: no trailing whitespace, runs of it one space, one final CRLF. */
export function relaxedBody(body: Buffer): Buffer {
  const text = body
    .toString('latin1')
    .replace(/[ \t]+(?=\r\n)/g, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/(\r\n)+$/, '');
  return Buffer.from(text.length ? `${text}\r\n` : '', 'latin1');
}

/** Relaxed header canonicalization of one header field. */
export function relaxedHeader(name: string, value: string): string {
  return `${name.toLowerCase().trim()}:${value
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()}`;
}

/**
 * The value of a DKIM-Signature header over `headers` (those named in `headerFieldNames` that
 * are present) and `body` (as sent, CRLF lines). The RSA signature is made on libuv's thread
 * pool, off the event loop that serves the SMTP connections.
 */
export async function dkimSignatureHeader({
  headers,
  body,
  domainName,
  keySelector,
  privateKey,
  headerFieldNames = DEFAULT_SIGNED,
}: {
  headers: [string, string][];
  body: Buffer;
  domainName: string;
  keySelector: string;
  privateKey: string | KeyObject;
  headerFieldNames?: string;
}): Promise<string> {
  const bodyHash = createHash('sha256').update(relaxedBody(body)).digest('base64');
  const byName = new Map(headers.map(([name, value]) => [name.toLowerCase(), value]));
  const signed: string[] = [];
  const canonical: string[] = [];
  for (const wanted of headerFieldNames.split(':')) {
    const name = wanted.trim().toLowerCase();
    const value = byName.get(name);
    if (!name || value === undefined || signed.includes(name)) continue;
    signed.push(name);
    canonical.push(relaxedHeader(name, value));
  }
  const unsigned =
    `v=1; a=rsa-sha256; c=relaxed/relaxed; d=${domainToASCII(domainName) || domainName};\r\n` +
    ` q=dns/txt; s=${keySelector}; t=${Math.floor(Date.now() / 1000)};\r\n` +
    ` bh=${bodyHash};\r\n h=${signed.join(':')}; b=`;
  const data = `${canonical.join('\r\n')}\r\n${relaxedHeader('dkim-signature', unsigned)}`;
  const signature = await new Promise<string>((resolve, reject) => {
    sign('sha256', Buffer.from(data, 'utf8'), keyObject(privateKey), (error, signed) => {
      if (error) reject(error);
      else resolve(signed.toString('base64'));
    });
  });
  return `${unsigned}${signature.replace(/(.{1,72})/g, '\r\n $1').trimEnd()}`;
}
