import { Resolver } from 'node:dns/promises';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign, waitForCampaign } from '../helpers/campaigns.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import type { CapturedEmail } from '../helpers/smtp-capture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

// What the delivery engine builds (one buffer, signed with the domain's parsed key, written raw)
// is read here by independent parts: mailauth checks the DKIM signature against the key the test
// DNS server publishes, postal-mime parses the parts and headers.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

const NAME = 'Zoë Ångström 山田';
const BODY =
  '<html><body><h1>Grüße, {{ firstName }}!</h1>\n' +
  '<p>Prices: 5 = five; 100% sure.   </p>\n.a line that starts with a dot\n' +
  `<p>${'A long line of text without breaks. '.repeat(12)}</p>\n` +
  '<p><a href="https://shop.example.com/news?x=1&amp;y=2">Read the news</a></p>\n' +
  '<p><a href="{{ unsubscribeUrl }}">Unsubscribe</a></p></body></html>';

async function verifyDkim(mail: CapturedEmail, domain: string): Promise<void> {
  const resolver = new Resolver();
  resolver.setServers([dns.address]);
  const dkim = await dkimVerify(mail.raw, {
    resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
  });
  expect(dkim.results).toHaveLength(1);
  expect(dkim.results[0]?.status.result).toBe('pass');
  expect(dkim.results[0]?.signingDomain).toBe(domain);
}

function checkContent(mail: CapturedEmail, { publicUrl }: { publicUrl: string }): void {
  const header = (name: string) => mail.parsed.headers.find((h) => h.key === name)?.value;
  expect(mail.parsed.subject).toBe(`Grüße ${NAME} — 🎉 news`);
  expect(mail.parsed.from).toMatchObject({ name: 'Ünïcode Shop' });
  const html = mail.parsed.html ?? '';
  const text = mail.parsed.text ?? '';
  expect(html).toContain(`<h1>Grüße, ${NAME}!</h1>`);
  expect(html).toContain('5 = five; 100% sure.');
  expect(html).toContain('\n.a line that starts with a dot\n');
  expect(html).toContain('A long line of text without breaks. '.repeat(12));
  const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1] as string);
  expect(links[0]).toMatch(new RegExp(`^${publicUrl}/t/c/`));
  expect(links[1]).toMatch(new RegExp(`^${publicUrl}/unsubscribe/`));
  expect(html).toMatch(new RegExp(`<img src="${publicUrl}/t/o/[^"]+"`));
  expect(text).toContain(links[0]);
  expect(text).toContain(`GRÜSSE, ${NAME.toUpperCase()}!`.slice(0, 6));
  expect(text).not.toContain('/t/o/');
  expect(header('list-unsubscribe')).toMatch(new RegExp(`^<${publicUrl}/unsubscribe/.+>$`));
  expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  const signed = /\bh=([^;]+)/.exec(header('dkim-signature') ?? '')?.[1]?.replace(/\s+/g, '') ?? '';
  expect(signed.toLowerCase().split(':')).toEqual(
    expect.arrayContaining(['from', 'to', 'subject', 'list-unsubscribe', 'list-unsubscribe-post']),
  );
}

describe('messages as a receiver reads them', () => {
  it('a campaign email and a /v1/send email verify (DKIM pass) and parse as sent', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('verify'));
    const publicUrl = stack.api.baseUrl;

    // A campaign to one contact with a non-ASCII name.
    const reader = uniqueEmail('reader');
    const contact = await stack.api.post('/contacts', {
      ...sk,
      body: { email: reader, subscribed: true, data: { firstName: NAME } },
    });
    expect(contact.status, contact.text).toBeLessThan(300);
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Verify',
      subject: 'Grüße {{ firstName }} — 🎉 news',
      body: BODY,
      from: `news@${domain}`,
      fromName: 'Ünïcode Shop',
      audienceType: 'ALL',
    });
    const sent = await stack.api.post(`/campaigns/${campaign.id}/send`, sk);
    expect(sent.status, sent.text).toBe(200);
    const campaignMail = await stack.smtp.waitFor((m) => m.to.includes(reader));
    await waitForCampaign(stack.api, sk, campaign.id);
    await verifyDkim(campaignMail, domain);
    checkContent(campaignMail, { publicUrl });

    // The same content through /v1/send: a marketing template, to a named recipient.
    const template = await stack.api.post('/templates', {
      ...sk,
      body: {
        name: 'Verify',
        subject: 'Grüße {{ firstName }} — 🎉 news',
        body: BODY,
        from: `news@${domain}`,
        fromName: 'Ünïcode Shop',
        type: 'MARKETING',
      },
    });
    expect(template.status, template.text).toBe(201);
    const other = uniqueEmail('other');
    await stack.api.post('/contacts', {
      ...sk,
      body: { email: other, subscribed: true, data: { firstName: NAME } },
    });
    const res = await stack.api.post('/v1/send', {
      ...sk,
      body: { to: { name: NAME, email: other }, template: template.body.id },
    });
    expect(res.status, res.text).toBe(200);
    const sendMail = await stack.smtp.waitFor((m) => m.to.includes(other));
    await verifyDkim(sendMail, domain);
    checkContent(sendMail, { publicUrl });
    expect(sendMail.parsed.to?.[0]).toMatchObject({ name: NAME, address: other });
  });
});
