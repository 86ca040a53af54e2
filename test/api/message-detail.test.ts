import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { eventually } from '../helpers/eventually.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
let sk: { key: string };
let emailId: string;
let contactId: string;
let tag: string;

beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack());
  ({ sk } = await projectFixture(stack.api));
  const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('message'));
  tag = `msg-${Date.now()}`;
  const sent = await stack.api.post('/v1/send', {
    ...sk,
    body: {
      to: { email: `reader-${tag}@example.com`, name: 'Ada Reader' },
      subject: `Receipt {{ plan }} ${tag}`,
      body: '<p>Hello {{ plan }}</p><a href="https://example.com/offer">Offer</a>',
      from: { email: `shop@${domain}`, name: 'The Shop' },
      data: { plan: 'gold' },
    },
  });
  expect(sent.status, sent.text).toBe(200);
  emailId = sent.body.data.emails[0].email;
  contactId = sent.body.data.emails[0].contact.id;
  const mail = await stack.smtp.waitFor((m) => m.parsed.subject === `Receipt gold ${tag}`);
  // SENT is recorded once the server has answered: opened after it, as a reader would.
  await eventually(
    async () => (await stack.api.get(`/emails/${emailId}`, sk)).body.status === 'SENT',
    { what: 'the email to be SENT' },
  );
  // An open, through the pixel the recipient's client fetches.
  const pixel = /src="([^"]*\/t\/o\/[^"]+)"/.exec(mail.parsed.html ?? '')?.[1];
  expect((await fetch(pixel as string)).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await stop?.();
});

describe('GET /emails/:id', () => {
  it('answers one email: recipient, sender, status, timestamps, its events and the body as rendered', async () => {
    const res = await stack.api.get(`/emails/${emailId}`, sk);
    expect(res.status, res.text).toBe(200);
    const message = res.body;
    expect(message).toMatchObject({
      id: emailId,
      status: 'SENT',
      type: 'TRANSACTIONAL',
      to: { email: `reader-${tag}@example.com`, name: 'Ada Reader' },
      from: { email: expect.stringMatching(/^shop@/), name: 'The Shop' },
      subject: `Receipt gold ${tag}`,
      contact: { id: contactId, email: `reader-${tag}@example.com` },
      campaign: null,
      template: null,
      workflow: null,
      renderError: null,
    });
    expect(message.messageId).toMatch(new RegExp(`^<${emailId}@`));
    const { queuedAt, sentAt, openedAt, deliveredAt } = message.timestamps;
    expect(Date.parse(queuedAt)).toBeLessThanOrEqual(Date.parse(sentAt));
    expect(Date.parse(sentAt)).toBeLessThanOrEqual(Date.parse(openedAt));
    expect(deliveredAt).toBeNull();
    // Variables filled in; no tracking pixel or rewritten link in the dashboard's copy.
    expect(message.html).toContain('<p>Hello gold</p>');
    expect(message.html).toContain('href="https://example.com/offer"');
    expect(message.html).not.toContain('/t/o/');
    expect(message.events.map((e: { name: string }) => e.name)).toEqual([
      'email.sent',
      'email.opened',
    ]);
    for (const event of message.events) expect(event.data.emailId).toBe(emailId);
  });

  it("answers 404 for another project's email and for an unknown id, 422 for a malformed one", async () => {
    const other = await projectFixture(stack.api);
    const foreign = await stack.api.get(`/emails/${emailId}`, other.sk);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    const unknown = await stack.api.get('/emails/0190f0c4-0000-7000-8000-000000000000', sk);
    expect(unknown.status).toBe(404);
    const malformed = await stack.api.get('/emails/not-an-id', sk);
    expect(malformed.status).toBe(422);
    expect(malformed.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(malformed.body.error.errors[0].field).toMatch(/id/);
    expect((await stack.api.get(`/emails/${emailId}`)).status).toBe(401);
  });
});
