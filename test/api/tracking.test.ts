import { Resolver } from 'node:dns/promises';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import type { CapturedEmail } from '../helpers/smtp-capture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

const BODY =
  '<p>Hi</p><a href="https://shop.example.com/sale?x=1&amp;y=2">Sale</a> <a href="mailto:help@example.com">Help</a> <a href="{{ unsubscribeUrl }}">Unsubscribe</a>';

async function sendMarketing(
  type: 'MARKETING' | 'TRANSACTIONAL' = 'MARKETING',
  opts: { tracking?: boolean } = {},
) {
  const fixture = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain('track'));
  if (opts.tracking === false) {
    await stack.api.patch(`/users/@me/projects/${fixture.project.id}`, {
      cookie: fixture.owner.cookie,
      body: { settings: { tracking: { opens: false, clicks: false } } },
    });
  }
  const template = (
    await stack.api.post('/templates', {
      ...fixture.sk,
      body: { name: 'News', subject: 'News', body: BODY, from: `news@${domain}`, type },
    })
  ).body;
  const to = uniqueEmail('reader');
  await stack.api.post('/contacts', { ...fixture.sk, body: { email: to, subscribed: true } });
  const res = await stack.api.post('/v1/send', {
    ...fixture.sk,
    body: { to, template: template.id },
  });
  expect(res.status, res.text).toBe(200);
  const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
  return {
    ...fixture,
    domain,
    to,
    mail,
    emailId: res.body.data.emails[0].email as string,
    contactId: res.body.data.emails[0].contact.id as string,
  };
}

const header = (mail: CapturedEmail, name: string): string | undefined =>
  mail.parsed.headers.find((h) => h.key === name.toLowerCase())?.value;

function links(mail: CapturedEmail): string[] {
  return [...(mail.parsed.html ?? '').matchAll(/href="([^"]+)"/g)].map((m) =>
    (m[1] as string).replace(/&amp;/g, '&'),
  );
}

async function eventsOf(
  key: string,
  contactId: string,
): Promise<{ name: string; data: Record<string, unknown> }[]> {
  return (await stack.api.get(`/events/contact/${contactId}`, { key })).body.data;
}

describe('tracking and unsubscribe', () => {
  it('signs one-click List-Unsubscribe headers on marketing mail and tracks opens and clicks', async () => {
    const { sk, mail, contactId, domain } = await sendMarketing();
    const unsubscribe = header(mail, 'List-Unsubscribe') as string;
    expect(unsubscribe).toMatch(
      new RegExp(`^<${stack.api.baseUrl}/unsubscribe/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+>$`),
    );
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const resolver = new Resolver();
    resolver.setServers([dns.address]);
    const dkim = await dkimVerify(mail.raw, {
      resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
    });
    expect(dkim.results[0]?.status.result).toBe('pass');
    expect(dkim.results[0]?.signingDomain).toBe(domain);
    const signed = String(header(mail, 'DKIM-Signature')).replace(/\s+/g, '').toLowerCase();
    expect(signed).toMatch(/h=[^;]*list-unsubscribe:list-unsubscribe-post/);

    const [sale, mailto, inBodyUnsubscribe] = links(mail);
    expect(sale).toMatch(new RegExp(`^${stack.api.baseUrl}/t/c/`));
    // The text part carries the same tracked link, and no pixel.
    expect(mail.parsed.text).toContain(sale);
    expect(mail.parsed.text).not.toContain('/t/o/');
    expect(mailto).toBe('mailto:help@example.com');
    expect(inBodyUnsubscribe).toBe(unsubscribe.slice(1, -1));

    const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(mail.parsed.html ?? '')?.[1] as string;
    const opened = await fetch(pixel);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('image/gif');
    const click = await fetch(sale as string, { redirect: 'manual' });
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe('https://shop.example.com/sale?x=1&y=2');

    const events = await eventsOf(sk.key, contactId);
    expect(events.find((e) => e.name === 'email.opened')).toBeDefined();
    expect(events.find((e) => e.name === 'email.clicked')?.data.link).toBe(
      'https://shop.example.com/sale?x=1&y=2',
    );
  });

  it('answers 404 to changed tokens and never redirects elsewhere', async () => {
    const { mail } = await sendMarketing();
    const sale = links(mail)[0] as string;
    const token = sale.split('/t/c/')[1] as string;
    const [body, mac] = token.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(body, 'base64url').toString()),
        u: 'https://evil.example.net/',
      }),
    ).toString('base64url');
    for (const path of [
      `/t/c/${forged}.${mac}`,
      `/t/c/${body}.${mac.slice(0, -2)}xx`,
      `/t/o/${body}.${mac}`,
      `/t/o/garbage-token-123`,
    ]) {
      const res = await fetch(`${stack.api.baseUrl}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('unsubscribes once on POST, never on GET', async () => {
    const { sk, mail, contactId } = await sendMarketing();
    const url = (header(mail, 'List-Unsubscribe') as string).slice(1, -1);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post"');
    expect((await stack.api.get(`/contacts/${contactId}`, sk)).body.subscribed).toBe(true);

    // What a mailbox provider sends for RFC 8058 one-click.
    const oneClick = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect((await fetch(url, { method: 'POST' })).status).toBe(200);
    expect((await stack.api.get(`/contacts/${contactId}`, sk)).body.subscribed).toBe(false);
    const unsubscribed = (await eventsOf(sk.key, contactId)).filter(
      (e) => e.name === 'contact.unsubscribed',
    );
    expect(unsubscribed).toHaveLength(1);
    expect(unsubscribed[0]?.data.source).toBe('unsubscribe-link');

    const manage = await fetch(url.replace('/unsubscribe/', '/manage/'));
    expect(await manage.text()).toContain('is unsubscribed from');
    expect(
      (await fetch(url.replace('/unsubscribe/', '/subscribe/'), { method: 'POST' })).status,
    ).toBe(200);
    expect((await stack.api.get(`/contacts/${contactId}`, sk)).body.subscribed).toBe(true);
  });

  it('puts no List-Unsubscribe on transactional mail, and tracks nothing when the project turns tracking off', async () => {
    const transactional = await sendMarketing('TRANSACTIONAL');
    expect(header(transactional.mail, 'List-Unsubscribe')).toBeUndefined();
    const untracked = await sendMarketing('MARKETING', { tracking: false });
    expect(links(untracked.mail)[0]).toBe('https://shop.example.com/sale?x=1&y=2');
    expect(untracked.mail.parsed.html).not.toContain('/t/o/');
    expect(header(untracked.mail, 'List-Unsubscribe')).toBeDefined();
  });
});
