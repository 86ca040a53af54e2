import { createHmac } from 'node:crypto';
import { constantTimeEqual, derivedHmacKey } from '../shared/secrets.js';

/**
 * Signed, self-contained tokens for links in emails: the payload travels in the URL and an
 * HMAC-SHA256 (key derived from ENCRYPTION_KEY) proves we made it. A changed byte gives an
 * invalid token, so links cannot be forged, enumerated, or pointed somewhere else.
 */
export type LinkToken =
  | { k: 'o'; e: string } // open pixel of email e
  | { k: 'c'; e: string; u: string } // click on url u in email e
  | { k: 'u'; c: string; p: string; e?: string } // subscription of contact c in project p
  | { k: 'd'; c: string; p: string; x: number }; // double opt-in of contact c in p, until x (unix s)

const keyOf = (secret: string) => derivedHmacKey('link-tokens', secret);

export function signLinkToken(payload: LinkToken, secret: string): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const mac = createHmac('sha256', keyOf(secret)).update(body).digest('base64url');
  return `${body}.${mac}`;
}

export function readLinkToken(token: string, secret: string): LinkToken | undefined {
  const [body, mac] = token.split('.');
  if (!body || !mac || token.length > 4096) return undefined;
  const expected = createHmac('sha256', keyOf(secret)).update(body).digest('base64url');
  if (!constantTimeEqual(mac, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LinkToken;
  } catch {
    return undefined;
  }
}
