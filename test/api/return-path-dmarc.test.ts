import { Resolver } from 'node:dns/promises';
import { authenticate } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../runtime/embedded/free-port.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { sentWithReturnPath } from '../helpers/return-path-mail.js';
import { SENDING_SPF_INCLUDE, startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

// DMARC for mail sent with the return path (issue 30), judged by an independent verifier:
// mailauth, reading the records the domain published on the test DNS server, given the bytes our
// SMTP test server received and the sending IP. SPF is checked for the envelope sender's domain,
// rp.<domain>, and aligns with the From domain under DMARC's relaxed rule; DKIM signs as the From
// domain and aligns too.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack({
    INBOUND_SMTP_PORT: String(await freePort()),
    INBOUND_MX_HOST: 'mx.dmarc.test',
  }));
  // The installation's SPF include names the address our mail leaves from (the SMTP test server
  // sees it come from 127.0.0.1).
  dns.publishTxt(SENDING_SPF_INCLUDE, 'v=spf1 ip4:127.0.0.1 -all');
});
afterAll(async () => {
  await stop?.();
});

/** mailauth's verdict on a message as a receiving MX would reach it. */
async function verdict({ raw, sender, ip }: { raw: Buffer | string; sender: string; ip: string }) {
  const resolver = new Resolver();
  resolver.setServers([dns.address]);
  return authenticate(raw, {
    ip,
    helo: 'mailwright.test',
    sender,
    mta: 'mx.receiver.test',
    resolver: (name: string, type: string) =>
      resolver.resolve(name, type as 'TXT') as Promise<string[][] | string[]>,
    disableArc: true,
    disableBimi: true,
  });
}

describe('DMARC for mail sent with the return path (mailauth)', () => {
  it('passes with SPF aligned through rp.<domain> and DKIM aligned; each alone still passes', async () => {
    const { sk } = await projectFixture(stack.api);
    // A domain directly under the TLD, so that rp.<domain> and <domain> share an organizational
    // domain only by the relaxed rule, as a customer's example.com would.
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('dmarc', 'test'));
    const { captured } = await sentWithReturnPath({ api: stack.api, smtp: stack.smtp, sk, domain });
    expect(captured.from).toMatch(new RegExp(`^[a-z2-7]{42}@rp\\.${domain.replace('.', '\\.')}$`));
    expect(captured.parsed.from?.address).toBe(`news@${domain}`);

    const result = await verdict({ raw: captured.raw, sender: captured.from, ip: '127.0.0.1' });
    expect(result.spf && result.spf.status.result).toBe('pass');
    expect(result.spf && result.spf.domain).toBe(`rp.${domain}`);
    expect(result.dkim.results).toHaveLength(1);
    expect(result.dkim.results[0]?.status.result).toBe('pass');
    expect(result.dkim.results[0]?.signingDomain).toBe(domain);
    expect(result.dmarc && result.dmarc.status.result).toBe('pass');
    expect(result.dmarc && result.dmarc.alignment).toMatchObject({
      spf: { result: `rp.${domain}`, strict: false },
      dkim: { result: domain, strict: false },
    });
    expect(result.headers).toContain(`dmarc=pass`);

    // The signature broken (the subject changed on the way): SPF's alignment alone passes DMARC.
    const altered = captured.raw
      .toString('utf8')
      .replace(/^Subject: Return path/m, 'Subject: Return path, altered');
    expect(altered).not.toBe(captured.raw.toString('utf8'));
    const spfOnly = await verdict({ raw: altered, sender: captured.from, ip: '127.0.0.1' });
    expect(spfOnly.dkim.results[0]?.status.result).toBe('fail');
    expect(spfOnly.dmarc && spfOnly.dmarc.status.result).toBe('pass');
    expect(spfOnly.dmarc && spfOnly.dmarc.alignment.spf.result).toBe(`rp.${domain}`);

    // From an address our SPF does not name: DKIM's alignment alone passes.
    const dkimOnly = await verdict({ raw: captured.raw, sender: captured.from, ip: '192.0.2.1' });
    expect(dkimOnly.spf && dkimOnly.spf.status.result).not.toBe('pass');
    expect(dkimOnly.dmarc && dkimOnly.dmarc.status.result).toBe('pass');
    expect(dkimOnly.dmarc && dkimOnly.dmarc.alignment.dkim.result).toBe(domain);

    // Both broken: the verifier is not passing everything.
    const neither = await verdict({ raw: altered, sender: captured.from, ip: '192.0.2.1' });
    expect(neither.dmarc && neither.dmarc.status.result).toBe('fail');
  });
});
