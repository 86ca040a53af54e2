import { randomUUID } from 'node:crypto';
import type { OutgoingMessage } from '../shared/ports.js';
import { dkimSignatureHeader } from './dkim-signature.js';

// The delivery engine's message builder: an email without attachments (every campaign email
// and most sends) is built once, as one buffer, DKIM-signed with the domain's parsed key, and
// handed to SMTP as raw bytes. Anything else (attachments, a header too long for one line) goes
// through nodemailer's composer as before (canBuildLean).

const HEADER_LINE_MAX = 900;
const OWN_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'reply-to',
  'subject',
  'message-id',
  'date',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'dkim-signature',
]);
const PRINTABLE = /^[\x20-\x7e]*$/;
const ATOM_TEXT = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]*$/;
const BOUNDARY_PREFIX = '_mw_';

/**
 * True when buildLeanMessage can build `message`: no attachments, a Message-ID given (nodemailer
 * makes one up; the lean builder writes only the one it is given), a plain subject that fits one
 * header line, plain addresses, and other headers of printable ASCII on one line each (a TAB from
 * folding or a non-ASCII word keeps nodemailer's encoding, which encodes only what it must).
 */
export function canBuildLean(message: OutgoingMessage): boolean {
  if (message.attachments && message.attachments.length > 0) return false;
  if (!message.messageId) return false;
  if (PRINTABLE.test(message.subject) && message.subject.length > HEADER_LINE_MAX) return false;
  for (const address of [message.from, message.to]) {
    if (typeof address === 'string' && !PRINTABLE.test(address)) return false;
  }
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    if (!PRINTABLE.test(value) || name.length + value.length > HEADER_LINE_MAX) return false;
  }
  return true;
}

/**
 * RFC 2047 encoded words (UTF-8, base64) for text that is not plain printable ASCII, each of 36
 * bytes at most (60 characters), so a header line holding one stays within 76.
 */
export function encodeHeaderText(text: string): string {
  if (PRINTABLE.test(text)) return text;
  const words: string[] = [];
  let chunk = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > 36) {
      words.push(`=?UTF-8?B?${Buffer.from(chunk).toString('base64')}?=`);
      chunk = '';
      bytes = 0;
    }
    chunk += char;
    bytes += size;
  }
  if (chunk) words.push(`=?UTF-8?B?${Buffer.from(chunk).toString('base64')}?=`);
  return words.join('\r\n ');
}

function formatAddress(address: OutgoingMessage['from']): string {
  if (typeof address === 'string') return address;
  const { name, address: email } = address;
  if (!name) return email;
  if (!PRINTABLE.test(name)) return `${encodeHeaderText(name)} <${email}>`;
  if (ATOM_TEXT.test(name)) return `${name} <${email}>`;
  return `"${name.replace(/(["\\])/g, '\\$1')}" <${email}>`;
}

const addressOf = (address: OutgoingMessage['from']): string =>
  typeof address === 'string' ? address : address.address;

const HEX = '0123456789ABCDEF';

/**
 * Quoted-printable (RFC 2045) of UTF-8 text: CRLF line breaks, lines of at most 76 characters,
 * whitespace before a line break encoded.
 */
export function quotedPrintable(text: string): Buffer {
  const input = Buffer.from(text, 'utf8');
  const out = Buffer.allocUnsafe(input.length * 3 + Math.ceil(input.length / 24) * 3 + 2);
  let at = 0;
  let lineLength = 0;
  const put = (token: number[] | number): void => {
    const size = typeof token === 'number' ? 1 : token.length;
    if (lineLength + size > 75) {
      out[at++] = 0x3d; // "=" soft line break
      out[at++] = 0x0d;
      out[at++] = 0x0a;
      lineLength = 0;
    }
    if (typeof token === 'number') out[at++] = token;
    else for (const b of token) out[at++] = b;
    lineLength += size;
  };
  const escaped = (b: number): number[] => [0x3d, HEX.charCodeAt(b >> 4), HEX.charCodeAt(b & 15)];
  for (let i = 0; i < input.length; i++) {
    const b = input[i] as number;
    if (b === 0x0a || (b === 0x0d && input[i + 1] === 0x0a)) {
      if (b === 0x0d) i++;
      out[at++] = 0x0d;
      out[at++] = 0x0a;
      lineLength = 0;
      continue;
    }
    if (b === 0x20 || b === 0x09) {
      const next = input[i + 1];
      const atLineEnd = next === undefined || next === 0x0a || next === 0x0d;
      put(atLineEnd ? escaped(b) : b);
      continue;
    }
    // "=", anything outside printable ASCII, and a line's leading "." (so that no line needs
    // the SMTP client's dot-stuffing) are escaped.
    const startsLine = lineLength === 0 || lineLength + 1 > 75;
    if (b >= 0x21 && b <= 0x7e && b !== 0x3d && !(b === 0x2e && startsLine)) put(b);
    else put(escaped(b));
  }
  return out.subarray(0, at);
}

/**
 * The whole message as it goes after DATA (CRLF lines, before dot-stuffing): headers, a
 * multipart/alternative of the text and HTML parts (quoted-printable), and a DKIM-Signature
 * when `message.dkim` is set. The caller checked canBuildLean.
 */
export async function buildLeanMessage(
  message: OutgoingMessage,
  now = new Date(),
): Promise<Buffer> {
  // Unpredictable per message, so no content can be written to end a part early.
  const boundary = `${BOUNDARY_PREFIX}${randomUUID()}`;
  const headers: [string, string][] = [
    ['From', formatAddress(message.from)],
    ['To', formatAddress(message.to)],
  ];
  if (message.replyTo) headers.push(['Reply-To', message.replyTo]);
  headers.push(['Subject', encodeHeaderText(message.subject)]);
  if (message.messageId) headers.push(['Message-ID', message.messageId]);
  headers.push(['Date', now.toUTCString().replace(/GMT$/, '+0000')]);
  // Printable ASCII on one line each (canBuildLean).
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    if (!OWN_HEADERS.has(name.toLowerCase())) headers.push([name, value]);
  }
  headers.push(['MIME-Version', '1.0']);
  headers.push(['Content-Type', `multipart/alternative;\r\n boundary="${boundary}"`]);

  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        'Content-Transfer-Encoding: quoted-printable\r\n\r\n',
      'latin1',
    ),
    quotedPrintable(message.text),
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Type: text/html; charset=utf-8\r\n` +
        'Content-Transfer-Encoding: quoted-printable\r\n\r\n',
      'latin1',
    ),
    quotedPrintable(message.html),
    Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1'),
  ]);
  if (message.dkim) {
    headers.unshift([
      'DKIM-Signature',
      await dkimSignatureHeader({
        headers,
        body,
        domainName: message.dkim.domainName,
        keySelector: message.dkim.keySelector,
        privateKey: message.dkim.privateKey,
        headerFieldNames: message.dkim.headerFieldNames,
      }),
    ]);
  }
  const head = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return Buffer.concat([Buffer.from(`${head}\r\n`, 'utf8'), body]);
}

/** The SMTP envelope of `message`: its return path (or From address) and its recipient. */
export function envelopeOf(message: OutgoingMessage): { from: string; to: string[] } {
  return {
    from: message.envelope?.from ?? addressOf(message.from),
    to: [message.envelope?.to ?? addressOf(message.to)],
  };
}
