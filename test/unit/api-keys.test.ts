import { describe, expect, it } from 'vitest';
import {
  generateProjectKeys,
  hashSecretKey,
  keyKindOf,
  maskSecretKey,
  secretKeyHint,
  secretKeyMatches,
} from '../../domain/projects/api-keys.js';

describe('project keys', () => {
  it('generates pk_/sk_ keys of 32 base62 characters, different each time', () => {
    const a = generateProjectKeys();
    const b = generateProjectKeys();
    expect(a.publicKey).toMatch(/^pk_[0-9A-Za-z]{32}$/);
    expect(a.secretKey).toMatch(/^sk_[0-9A-Za-z]{32}$/);
    expect(a.secretKey).not.toBe(b.secretKey);
  });

  it('recognises key kinds by prefix and shape only', () => {
    const { publicKey, secretKey } = generateProjectKeys();
    expect(keyKindOf(publicKey)).toBe('public');
    expect(keyKindOf(secretKey)).toBe('secret');
    expect(keyKindOf('sk_short')).toBeUndefined();
    expect(keyKindOf(`xx_${'a'.repeat(32)}`)).toBeUndefined();
    expect(keyKindOf(`${secretKey}\r\nX: y`)).toBeUndefined();
  });

  it('stores a hash that matches only its own key, and masks with the last four characters', () => {
    const { secretKey } = generateProjectKeys();
    const hash = hashSecretKey(secretKey);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(secretKey.slice(3));
    expect(secretKeyMatches(secretKey, hash)).toBe(true);
    expect(secretKeyMatches(generateProjectKeys().secretKey, hash)).toBe(false);
    expect(maskSecretKey(secretKeyHint(secretKey))).toMatch(
      new RegExp(`^sk_•+${secretKey.slice(-4)}$`),
    );
  });
});
