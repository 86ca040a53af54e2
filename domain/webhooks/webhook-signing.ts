import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret in Standard Webhooks' form: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/**
 * The HMAC key a secret stands for, as Standard Webhooks reads it (the base64 after `whsec_`),
 * decoded once so that each attempt only hashes.
 */
export function signingKey(secret: string): KeyObject {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('A signing secret cannot be empty');
  return createSecretKey(key);
}

/** The Standard Webhooks headers a delivery attempt carries. */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs one attempt with every key given (the current secret's, and during a rotation's overlap
 * the previous one's too): `webhook-signature` lists one `v1,<signature>` per key, separated by
 * spaces, and a receiver that knows either secret verifies it. The signature is Standard
 * Webhooks' v1: base64 of HMAC-SHA256 over `<id>.<timestamp>.<body>` (node's crypto; the
 * `standardwebhooks` package verifies it, test/unit/webhook-signing.test.ts).
 */
export function signedHeaders({
  id,
  body,
  keys,
  at,
}: {
  id: string;
  body: string;
  keys: readonly KeyObject[];
  at: Date;
}): SignedHeaders {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signatures = keys.map(
    (key) =>
      `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`,
  );
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signatures.join(' '),
  };
}

/** Every header a delivery attempt sends: its JSON body's type, who sends it, its signature. */
export function deliveryHeaders(
  attempt: Parameters<typeof signedHeaders>[0],
): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'Mailwright-Webhooks/1',
    ...signedHeaders(attempt),
  };
}
