import {
  createHash,
  createSecretKey,
  randomBytes,
  randomInt,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += BASE62[randomInt(BASE62.length)];
  return out;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

// One derived key per purpose and secret, made once: HMAC with raw key bytes imports them on every
// call, six times the cost of the hash itself (a delivered email signs three or four links).
const derivedKeys = new Map<string, { secret: string; key: KeyObject }>();

/** The HMAC key for `purpose` derived from `secret` (sha256 of `<purpose>:<secret>`). */
export function derivedHmacKey(purpose: string, secret: string): KeyObject {
  const last = derivedKeys.get(purpose);
  if (last?.secret === secret) return last.key;
  const key = createSecretKey(createHash('sha256').update(`${purpose}:${secret}`).digest());
  derivedKeys.set(purpose, { secret, key });
  return key;
}
