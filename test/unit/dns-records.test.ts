import { describe, expect, it } from 'vitest';
import {
  dkimMatches,
  dmarcPresent,
  joinTxt,
  normaliseDomain,
  requiredRecords,
  spfIncludes,
} from '../../domain/domains/dns-records.pure.js';
import { decryptSecret, encryptSecret } from '../../domain/shared/encryption.js';

describe('DNS record rules', () => {
  it('normalises domain names and refuses what is not one', () => {
    expect(normaliseDomain(' Mail.Example.COM. ')).toBe('mail.example.com');
    for (const bad of [
      'localhost',
      '10.0.0.1',
      'a b.com',
      'x..y.com',
      '-a.com',
      'a-.com',
      `${'a'.repeat(64)}.com`,
    ]) {
      expect(normaliseDomain(bad), bad).toBeUndefined();
    }
  });

  it('joins TXT character-strings and matches the DKIM key exactly', () => {
    const key = 'MIIB'.padEnd(392, 'A');
    const answer = [[`v=DKIM1; k=rsa; p=${key.slice(0, 200)}`, key.slice(200)]];
    expect(dkimMatches(joinTxt(answer), key)).toBe(true);
    expect(dkimMatches([`v=DKIM1; k=rsa; p=${key}X`], key)).toBe(false);
    expect(dkimMatches([`v=DKIM1; p=${key.slice(0, 100)} ${key.slice(100)}`], key)).toBe(true);
  });

  it('needs exactly one SPF record that includes ours', () => {
    const ours = '_spf.mw.test';
    expect(spfIncludes(['v=spf1 include:_spf.google.com include:_spf.mw.test ~all'], ours)).toBe(
      true,
    );
    expect(spfIncludes(['v=spf1 +include:_SPF.MW.TEST -all'], ours)).toBe(true);
    expect(spfIncludes(['v=spf1 include:_spf.mw.test.evil.com ~all'], ours)).toBe(false);
    expect(spfIncludes(['v=spf1 include:_spf.mw.test ~all', 'v=spf1 -all'], ours)).toBe(false);
    expect(spfIncludes(['google-site-verification=x'], ours)).toBe(false);
    expect(dmarcPresent(['v=DMARC1; p=reject'])).toBe(true);
    expect(dmarcPresent(['v=spf1 -all'])).toBe(false);
  });

  it('lists DKIM, SPF and DMARC records', () => {
    const records = requiredRecords({
      domain: 'x.com',
      selector: 'mwabc123',
      publicKey: 'KEY',
      spfInclude: '_spf.mw.test',
    });
    expect(records.map((r) => [r.purpose, r.name, r.required])).toEqual([
      ['dkim', 'mwabc123._domainkey.x.com', true],
      ['spf', 'x.com', true],
      ['dmarc', '_dmarc.x.com', false],
    ]);
  });
});

describe('secrets at rest', () => {
  it('round-trips with the key and refuses another key or a tampered value', () => {
    const stored = encryptSecret('-----BEGIN PRIVATE KEY-----', 'secret-one');
    expect(stored).toMatch(/^v1:/);
    expect(encryptSecret('same', 'k')).not.toBe(encryptSecret('same', 'k'));
    expect(decryptSecret(stored, 'secret-one')).toBe('-----BEGIN PRIVATE KEY-----');
    expect(() => decryptSecret(stored, 'secret-two')).toThrow();
    const raw = Buffer.from(stored.slice(3), 'base64');
    raw[raw.length - 1] = (raw[raw.length - 1] as number) ^ 1;
    expect(() => decryptSecret(`v1:${raw.toString('base64')}`, 'secret-one')).toThrow();
  });
});
