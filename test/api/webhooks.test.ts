import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';
import { eventually } from '../helpers/eventually.js';
import { signedEmailCallback } from '../helpers/email-callback.js';

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

function signed(
  body: unknown,
  { secret = stack.env.EMAIL_WEBHOOK_SECRET as string, t = Math.floor(Date.now() / 1000) } = {},
) {
  return signedEmailCallback(body, { secret, t });
}

async function sentEmail() {
  const fixture = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain('hooks'));
  const to = uniqueEmail('hook');
  const res = await stack.api.post('/v1/send', {
    ...fixture.sk,
    body: { to, subject: 'S', body: 'b', from: `a@${domain}`, subscribed: true },
  });
  const emailId = res.body.data.emails[0].email as string;
  const contactId = res.body.data.emails[0].contact.id as string;
  const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
  await eventually(async () => (await status(emailId)) === 'SENT', {
    what: `email ${emailId} to be SENT`,
    timeoutMs: 10_000,
  });
  return { ...fixture, domain, to, emailId, contactId, messageId: mail.parsed.messageId as string };
}

async function status(emailId: string): Promise<string> {
  return withDatabase(
    async (db) =>
      (await db.query('SELECT status FROM emails WHERE id = $1', [emailId])).rows[0]?.status,
  );
}

async function eventNames(key: string, contactId: string): Promise<string[]> {
  return (await stack.api.get(`/events/contact/${contactId}`, { key })).body.data.map(
    (e: { name: string }) => e.name,
  );
}

describe('POST /webhooks/email', () => {
  it('records delivery once, however often the callback repeats', async () => {
    const { sk, emailId, contactId, messageId } = await sentEmail();
    const first = await stack.api.post('/webhooks/email', signed({ type: 'delivered', messageId }));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ received: true, applied: true });
    const again = await stack.api.post('/webhooks/email', signed({ type: 'delivered', emailId }));
    expect(again.body.applied).toBe(false);
    expect(await status(emailId)).toBe('DELIVERED');
    expect(
      (await eventNames(sk.key, contactId)).filter((n) => n === 'email.delivered'),
    ).toHaveLength(1);
  });

  it('keeps the sending of an email whose bounce came while the server still held it', async () => {
    const fixture = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain('early'));
    const to = uniqueEmail('early');
    let reachedServer: () => void = () => undefined;
    const atServer = new Promise<void>((resolve) => {
      reachedServer = resolve;
    });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    stack.smtp.setResponder(async (message) => {
      if (!message.to.includes(to)) return;
      reachedServer();
      await released;
    });
    try {
      const res = await stack.api.post('/v1/send', {
        ...fixture.sk,
        body: { to, subject: 'Early', body: 'b', from: `a@${domain}` },
      });
      expect(res.status, res.text).toBe(200);
      const emailId = res.body.data.emails[0].email as string;
      const contactId = res.body.data.emails[0].contact.id as string;
      await atServer;
      // The provider reports the bounce before the server has answered the lane.
      const bounce = await stack.api.post(
        '/webhooks/email',
        signed({ type: 'bounced', bounceType: 'hard', emailId }),
      );
      expect(bounce.body).toEqual({ received: true, applied: true });
      release();
      await stack.smtp.waitFor((m) => m.to.includes(to));
      await expect
        .poll(async () => (await eventNames(fixture.sk.key, contactId)).sort(), {
          timeout: 10_000,
        })
        .toEqual(['email.bounced', 'email.sent']);
      const row = await withDatabase(
        async (db) =>
          (await db.query('SELECT status, sent_at FROM emails WHERE id = $1', [emailId])).rows[0],
      );
      expect(row.status).toBe('BOUNCED');
      expect(row.sent_at).not.toBeNull();
    } finally {
      stack.smtp.setResponder(undefined);
      release();
    }
  });

  it('suppresses and unsubscribes on a hard bounce; the next send is SUPPRESSED', async () => {
    const { sk, emailId, contactId, to, domain } = await sentEmail();
    const res = await stack.api.post(
      '/webhooks/email',
      signed({ type: 'bounced', bounceType: 'hard', emailId }),
    );
    expect(res.body.applied).toBe(true);
    expect(await status(emailId)).toBe('BOUNCED');
    expect((await stack.api.get(`/contacts/${contactId}`, sk)).body.subscribed).toBe(false);
    const names = await eventNames(sk.key, contactId);
    expect(names).toEqual(expect.arrayContaining(['email.bounced', 'contact.unsubscribed']));
    const next = await stack.api.post('/v1/send', {
      ...sk,
      body: { to, subject: 'Again', body: 'b', from: `a@${domain}` },
    });
    expect(next.body.data.emails[0].status).toBe('SUPPRESSED');
  });

  it('suppresses on a complaint, and only records a soft bounce', async () => {
    const complained = await sentEmail();
    await stack.api.post(
      '/webhooks/email',
      signed({ type: 'complained', emailId: complained.emailId }),
    );
    expect(await eventNames(complained.sk.key, complained.contactId)).toContain('email.complained');
    const suppressed = await withDatabase(
      async (db) =>
        (await db.query('SELECT reason FROM suppressions WHERE email = $1', [complained.to])).rows,
    );
    expect(suppressed).toEqual([{ reason: 'complaint' }]);

    const soft = await sentEmail();
    await stack.api.post(
      '/webhooks/email',
      signed({ type: 'bounced', bounceType: 'soft', emailId: soft.emailId }),
    );
    expect(await status(soft.emailId)).toBe('SENT');
    expect((await stack.api.get(`/contacts/${soft.contactId}`, soft.sk)).body.subscribed).toBe(
      true,
    );
    const events = (await stack.api.get(`/events/contact/${soft.contactId}`, soft.sk)).body.data;
    expect(events.find((e: { name: string }) => e.name === 'email.bounced').data.bounceType).toBe(
      'soft',
    );
  });

  it('refuses unsigned, wrongly signed and stale callbacks, changing nothing', async () => {
    const { emailId } = await sentEmail();
    const body = { type: 'bounced', emailId };
    expect((await stack.api.post('/webhooks/email', { body })).status).toBe(401);
    expect(
      (await stack.api.post('/webhooks/email', signed(body, { secret: 'not-the-secret' }))).status,
    ).toBe(401);
    expect(
      (
        await stack.api.post(
          '/webhooks/email',
          signed(body, { t: Math.floor(Date.now() / 1000) - 3600 }),
        )
      ).status,
    ).toBe(401);
    const tampered = signed(body);
    expect(
      (
        await stack.api.post('/webhooks/email', {
          ...tampered,
          rawBody: tampered.rawBody.replace('bounced', 'complained'),
        })
      ).status,
    ).toBe(401);
    expect(await status(emailId)).toBe('SENT');
    const unknown = await stack.api.post(
      '/webhooks/email',
      signed({ type: 'delivered', emailId: randomUUID() }),
    );
    expect(unknown.body).toEqual({ received: true, applied: false });
  });
});
