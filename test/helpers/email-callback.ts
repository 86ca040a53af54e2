import { createHmac } from 'node:crypto';

/**
 * A /webhooks/email callback as the mail infrastructure signs it: the raw JSON body and its
 * `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` header.
 */
export function signedEmailCallback(
  body: unknown,
  { secret, t = Math.floor(Date.now() / 1000) }: { secret: string; t?: number },
): { rawBody: string; headers: { 'X-Signature': string } } {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const v1 = createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex');
  return { rawBody: raw, headers: { 'X-Signature': `t=${t},v1=${v1}` } };
}
