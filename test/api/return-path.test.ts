import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../runtime/embedded/free-port.js';
import { readReturnPathToken } from '../../domain/sending/return-path.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

// A return path per email (issue 30): once the domain's `rp.<domain>` MX names the inbound host,
// an email's envelope sender is `<token>@rp.<domain>`, the token naming the email; before, the
// From address, as it always was.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack({
    INBOUND_SMTP_PORT: String(await freePort()),
    INBOUND_MX_HOST: 'mx.return-path.test',
  }));
});
afterAll(async () => {
  await stop?.();
});

interface RecordView {
  type: string;
  name: string;
  value: string;
  purpose: string;
  verified: boolean;
}

async function send(sk: { key: string }, from: string) {
  const to = uniqueEmail('rp');
  const res = await stack.api.post('/v1/send', {
    ...sk,
    body: { to, subject: 'Return path', body: '<p>b</p>', from },
  });
  expect(res.status, res.text).toBe(200);
  const emailId: string = res.body.data.emails[0].email;
  const captured = await stack.smtp.waitFor((m) => m.to.includes(to));
  return { emailId, to, captured };
}

describe('the return path', () => {
  it('is the From address until the return-path MX is verified, then <token>@rp.<domain>', async () => {
    const { sk } = await projectFixture(stack.api);
    const name = uniqueDomain('rp');
    const added = await stack.api.post('/domains', { ...sk, body: { domain: name } });
    expect(added.status, added.text).toBe(201);
    const records = added.body.records as RecordView[];
    const returnPath = records.filter((r) => r.purpose === 'return_path');
    expect(returnPath).toEqual([
      {
        type: 'MX',
        name: `rp.${name}`,
        value: '10 mx.return-path.test',
        purpose: 'return_path',
        required: false,
        verified: false,
      },
      {
        type: 'TXT',
        name: `rp.${name}`,
        value: 'v=spf1 include:_spf.mailwright.test ~all',
        purpose: 'return_path',
        required: false,
        verified: false,
      },
    ]);
    // The domain's own records only: verified, and mail keeps the From address as envelope sender.
    for (const r of records.filter((r) => r.type === 'TXT' && r.purpose !== 'return_path'))
      dns.publishTxt(r.name, r.value);
    const verified = await stack.api.get(`/domains/${added.body.id}/verify`, sk);
    expect(verified.body.status).toBe('VERIFIED');
    expect(
      (verified.body.records as RecordView[]).filter((r) => r.purpose === 'return_path'),
    ).toMatchObject([{ verified: false }, { verified: false }]);
    const before = await send(sk, `news@${name}`);
    expect(before.captured.from).toBe(`news@${name}`);

    // The SPF alone changes nothing; the MX does.
    dns.publishTxt(`rp.${name}`, 'v=spf1 include:_spf.mailwright.test ~all');
    const spfOnly = await stack.api.get(`/domains/${added.body.id}/verify`, sk);
    expect(
      (spfOnly.body.records as RecordView[]).filter((r) => r.purpose === 'return_path'),
    ).toMatchObject([{ verified: false }, { verified: true }]);
    const stillFrom = await send(sk, `news@${name}`);
    expect(stillFrom.captured.from).toBe(`news@${name}`);

    dns.publishMx(`rp.${name}`, 'mx.return-path.test.', 10);
    const withMx = await stack.api.get(`/domains/${added.body.id}/verify`, sk);
    expect(
      (withMx.body.records as RecordView[]).filter((r) => r.purpose === 'return_path'),
    ).toMatchObject([{ verified: true }, { verified: true }]);
    const after = await send(sk, `news@${name}`);
    const [local, host] = after.captured.from.split('@');
    expect(host).toBe(`rp.${name}`);
    expect(local).toMatch(/^[a-z2-7]{42}$/);
    expect(
      readReturnPathToken({ token: local as string, secret: stack.env.ENCRYPTION_KEY as string }),
    ).toBe(after.emailId);
    // The From header stays the sender's address (DMARC aligns rp.<domain> with <domain>).
    expect(after.captured.parsed.from?.address).toBe(`news@${name}`);
    expect(after.captured.to).toEqual([after.to]);

    // Each email has its own.
    const next = await send(sk, `news@${name}`);
    expect(next.captured.from).not.toBe(after.captured.from);
    expect(next.captured.from.endsWith(`@rp.${name}`)).toBe(true);
  });
});
