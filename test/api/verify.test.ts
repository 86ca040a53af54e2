import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let dns: DnsServer;
let stack: TestStack;
let deadResolver: TestStack;
beforeAll(async () => {
  dns = await startDnsServer();
  dns.publishMx('acme-corp.test', 'mx.acme-corp.test');
  dns.publishA('www.acme-corp.test', '192.0.2.10');
  dns.publishMx('gmail.com', 'gmail-smtp-in.l.google.com');
  dns.publishMx('mailinator.com', 'mail.mailinator.com');
  dns.publishA('a-only.test', '192.0.2.20');
  dns.publishTxt('txt-only.test', 'v=spf1 -all');
  stack = await startStack({ env: { DNS_SERVERS: dns.address, DNS_TIMEOUT_MS: '1000' } });
  // The default test stack points at a resolver that does not answer.
  deadResolver = await startStack();
});
afterAll(async () => {
  await Promise.all([stack?.stop(), deadResolver?.stop()]);
  await dns?.stop();
});

async function verify(target: TestStack, email: string) {
  const { sk } = await projectFixture(target.api);
  const res = await target.api.post('/v1/verify', { ...sk, body: { email } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body.data;
}

describe('POST /v1/verify', () => {
  it('passes an ordinary company address', async () => {
    expect(await verify(stack, 'jane.doe@acme-corp.test')).toEqual({
      email: 'jane.doe@acme-corp.test',
      valid: true,
      isDisposable: false,
      isAlias: false,
      isTypo: false,
      isPlusAddressed: false,
      isPersonalEmail: false,
      domainExists: true,
      hasWebsite: true,
      hasMxRecords: true,
      reasons: [],
    });
  });

  it('flags disposable domains as invalid', async () => {
    const result = await verify(stack, 'someone@mailinator.com');
    expect(result).toMatchObject({ valid: false, isDisposable: true, hasMxRecords: true });
    expect(result.reasons).toContain('disposable_domain');
  });

  it('suggests the provider a typo meant', async () => {
    const result = await verify(stack, 'ada@gmial.com');
    expect(result).toMatchObject({
      isTypo: true,
      suggestion: 'ada@gmail.com',
      valid: false,
      domainExists: false,
    });
    expect(result.reasons).toEqual(
      expect.arrayContaining(['possible_typo', 'no_mx_records', 'domain_not_found']),
    );
  });

  it('recognises plus addressing, role mailboxes and free-mail providers', async () => {
    expect(await verify(stack, 'ada+news@gmail.com')).toMatchObject({
      valid: true,
      isPlusAddressed: true,
      isAlias: true,
      isPersonalEmail: true,
    });
    expect(await verify(stack, 'a.da@gmail.com')).toMatchObject({
      isAlias: true,
      isPlusAddressed: false,
    });
    expect(await verify(stack, 'admin@acme-corp.test')).toMatchObject({
      valid: true,
      isAlias: true,
      isPersonalEmail: false,
    });
  });

  it('falls back to the A record without MX, and fails a domain without either', async () => {
    expect(await verify(stack, 'x@a-only.test')).toMatchObject({
      valid: true,
      hasMxRecords: false,
      hasWebsite: true,
      domainExists: true,
    });
    const txtOnly = await verify(stack, 'x@txt-only.test');
    expect(txtOnly).toMatchObject({
      valid: false,
      hasMxRecords: false,
      domainExists: true,
      hasWebsite: false,
    });
    expect(txtOnly.reasons).toEqual(['no_mx_records']);
    const nothing = await verify(stack, 'x@nowhere-at-all.test');
    expect(nothing).toMatchObject({ valid: false, domainExists: false });
    expect(nothing.reasons).toEqual(['no_mx_records', 'domain_not_found']);
  });

  it('answers dns_unavailable (not an error) when the resolver does not answer', async () => {
    const result = await verify(deadResolver, 'jane@acme-corp.test');
    expect(result).toMatchObject({ valid: false, hasMxRecords: false });
    expect(result.reasons).toEqual(['dns_unavailable']);
  });

  it('refuses the public key and a malformed address', async () => {
    const { project, sk } = await projectFixture(stack.api);
    expect(
      (await stack.api.post('/v1/verify', { key: project.publicKey, body: { email: 'a@b.co' } }))
        .status,
    ).toBe(401);
    const bad = await stack.api.post('/v1/verify', { ...sk, body: { email: 'not an address' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.errors[0]).toMatchObject({ field: 'email', code: 'invalid_string' });
  });
});
