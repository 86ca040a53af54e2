import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret in Standard Webhooks' form: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/** The Standard Webhooks headers a delivery attempt carries. */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs one attempt with every secret given (the current one, and during a rotation's overlap the
 * previous one too): `webhook-signature` lists one `v1,<signature>` per secret, separated by
 * spaces, and a receiver that knows either secret verifies it.
 */
export function signedHeaders({
  id,
  body,
  secrets,
  at,
}: {
  id: string;
  body: string;
  secrets: readonly string[];
  at: Date;
}): SignedHeaders {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, at, body));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
