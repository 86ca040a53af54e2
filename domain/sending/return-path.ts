import { createHmac } from 'node:crypto';
import { constantTimeEqual, derivedHmacKey } from '../shared/secrets.js';

/**
 * The envelope sender of an email, `<token>@<prefix>.<domain>`: the token names the email (its
 * id's 16 bytes) and carries an HMAC-SHA256 of them cut to 10 bytes (key derived from
 * ENCRYPTION_KEY), so a report to a made-up or altered address cannot touch any email. Both in
 * lower-case base32, as mail systems may fold the case of a local part: 26 + 16 characters,
 * well within a local part's 64.
 */

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const ID_CHARS = 26;
const MAC_BYTES = 10;
const MAC_CHARS = 16;

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string, byteCount: number): Buffer | undefined {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) return undefined;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return bytes.length === byteCount ? Buffer.from(bytes) : undefined;
}

const keyOf = (secret: string) => derivedHmacKey('return-path', secret);

const macOf = (idBytes: Buffer, secret: string): string =>
  base32(createHmac('sha256', keyOf(secret)).update(idBytes).digest().subarray(0, MAC_BYTES));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function signReturnPathToken({ emailId, secret }: { emailId: string; secret: string }) {
  if (!UUID.test(emailId)) throw new Error(`Not an email id: ${emailId}`);
  const idBytes = Buffer.from(emailId.replace(/-/g, ''), 'hex');
  return `${base32(idBytes)}${macOf(idBytes, secret)}`;
}

/** The email a return-path token names, or undefined when it is not one we made. */
export function readReturnPathToken({
  token,
  secret,
}: {
  token: string;
  secret: string;
}): string | undefined {
  const text = token.toLowerCase();
  if (text.length !== ID_CHARS + MAC_CHARS) return undefined;
  const idBytes = unbase32(text.slice(0, ID_CHARS), 16);
  // One spelling per email: the last character's unused bits must be zero.
  if (!idBytes || base32(idBytes) !== text.slice(0, ID_CHARS)) return undefined;
  if (!constantTimeEqual(text.slice(ID_CHARS), macOf(idBytes, secret))) return undefined;
  const hex = idBytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function returnPathAddress({
  emailId,
  host,
  secret,
}: {
  emailId: string;
  host: string;
  secret: string;
}): string {
  return `${signReturnPathToken({ emailId, secret })}@${host}`;
}
