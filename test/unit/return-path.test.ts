import { describe, expect, it } from 'vitest';
import { readReturnPathToken, signReturnPathToken } from '../../domain/sending/return-path.js';
import { requiredRecords } from '../../domain/domains/dns-records.pure.js';

const secret = 'unit-test-secret';
const emailId = '0193a5f0-7c1e-7abc-8def-0123456789ab';

describe('return-path tokens', () => {
  it('are short, lower-case base32, and name the email they were made for', () => {
    const token = signReturnPathToken({ emailId, secret });
    expect(token).toMatch(/^[a-z2-7]{42}$/);
    expect(readReturnPathToken({ token, secret })).toBe(emailId);
    // Mail systems may fold a local part's case.
    expect(readReturnPathToken({ token: token.toUpperCase(), secret })).toBe(emailId);
  });

  it('refuse a changed character, another secret, another length and a non-canonical spelling', () => {
    const token = signReturnPathToken({ emailId, secret });
    for (let i = 0; i < token.length; i += 1) {
      const swapped = token[i] === 'a' ? 'b' : 'a';
      const forged = `${token.slice(0, i)}${swapped}${token.slice(i + 1)}`;
      expect(readReturnPathToken({ token: forged, secret })).toBeUndefined();
    }
    expect(readReturnPathToken({ token, secret: 'another' })).toBeUndefined();
    expect(readReturnPathToken({ token: token.slice(1), secret })).toBeUndefined();
    expect(readReturnPathToken({ token: `${token}a`, secret })).toBeUndefined();
    expect(readReturnPathToken({ token: 'not-a-token', secret })).toBeUndefined();
    // Another email's token with this email's id: the MAC no longer matches.
    const other = signReturnPathToken({ emailId: '0193a5f0-7c1e-7abc-8def-0123456789ac', secret });
    expect(readReturnPathToken({ token: `${token.slice(0, 26)}${other.slice(26)}`, secret })).toBe(
      undefined,
    );
  });
});

describe('return-path records', () => {
  const base = {
    domain: 'example.com',
    selector: 's1',
    publicKey: 'KEY',
    spfInclude: '_spf.mw.test',
  };

  it('advise an MX to the inbound host and an SPF TXT for <prefix>.<domain>', () => {
    const records = requiredRecords({ ...base, mxHost: 'mx.mw.test', returnPathPrefix: 'rp' });
    expect(records.filter((r) => r.purpose === 'return_path')).toEqual([
      {
        type: 'MX',
        name: 'rp.example.com',
        value: '10 mx.mw.test',
        purpose: 'return_path',
        required: false,
      },
      {
        type: 'TXT',
        name: 'rp.example.com',
        value: 'v=spf1 include:_spf.mw.test ~all',
        purpose: 'return_path',
        required: false,
      },
    ]);
  });

  it('are absent when this installation receives no mail', () => {
    const records = requiredRecords({ ...base, returnPathPrefix: 'rp' });
    expect(records.some((r) => r.purpose === 'return_path')).toBe(false);
  });
});
