import { constantTimeEqual, randomBase62, sha256 } from '../shared/secrets.js';
import type { KeyKind } from './key-kind.pure.js';

export interface ProjectKeys {
  publicKey: string;
  secretKey: string;
}

export function generateProjectKeys(): ProjectKeys {
  return { publicKey: `pk_${randomBase62(32)}`, secretKey: `sk_${randomBase62(32)}` };
}

export function hashSecretKey(secretKey: string): string {
  return sha256(secretKey);
}

export function secretKeyHint(secretKey: string): string {
  return secretKey.slice(-4);
}

export function maskSecretKey(hint: string): string {
  return `sk_${'•'.repeat(8)}${hint}`;
}

const KEY_SHAPE = /^(pk|sk)_[0-9A-Za-z]{32}$/;

export function keyKindOf(key: string): KeyKind | undefined {
  const match = KEY_SHAPE.exec(key);
  if (!match) return undefined;
  return match[1] === 'pk' ? 'public' : 'secret';
}

export function secretKeyMatches(secretKey: string, storedHash: string): boolean {
  return constantTimeEqual(hashSecretKey(secretKey), storedHash);
}
