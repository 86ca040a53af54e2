import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { eventually } from '../helpers/eventually.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';
import { signedEmailCallback } from '../helpers/email-callback.js';

// The suppression list people manage (issue 30, item 4): each entry with its reason and
// evidence, lifted on request; and the bounce policy that decides what goes on it.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

type Sk = { key: string };

const signed = (body: unknown) =>
  signedEmailCallback(body, { secret: stack.env.EMAIL_WEBHOOK_SECRET as string });

async function sender() {
  const fixture = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain('supp'));
  return { ...fixture, domain };
}

const statusOf = (emailId: string) =>
  withDatabase(
    async (db) =>
      (await db.query('SELECT status FROM emails WHERE id = $1', [emailId])).rows[0]?.status,
  );

/** Sends one email to `to` and waits for it to be SENT; answers its id and contact. */
async function sent(sk: Sk, domain: string, to: string) {
  const res = await stack.api.post('/v1/send', {
    ...sk,
    body: { to, subject: 'S', body: 'b', from: `a@${domain}`, subscribed: true },
  });
  expect(res.status, res.text).toBe(200);
  const emailId = res.body.data.emails[0].email as string;
  await eventually(async () => (await statusOf(emailId)) === 'SENT', {
    what: `email ${emailId} to be SENT`,
  });
  return { emailId, contactId: res.body.data.emails[0].contact.id as string };
}

const report = (body: Record<string, unknown>) => stack.api.post('/webhooks/email', signed(body));

describe('the suppression list', () => {
  it('lists each entry with its reason and evidence, pages newest first, filters by reason', async () => {
    const { sk, domain } = await sender();
    const bounced = [uniqueEmail('b1'), uniqueEmail('b2'), uniqueEmail('b3')];
    for (const to of bounced) {
      const { emailId } = await sent(sk, domain, to);
      expect((await report({ type: 'bounced', emailId })).body.applied).toBe(true);
    }
    const complainer = uniqueEmail('spam');
    const complaint = await sent(sk, domain, complainer);
    await report({ type: 'complained', emailId: complaint.emailId });

    const all = await stack.api.get('/suppressions', sk);
    expect(all.status, all.text).toBe(200);
    expect(all.body.total).toBe(4);
    expect(all.body.data.map((s: { email: string }) => s.email)).toEqual([
      complainer,
      ...[...bounced].reverse(),
    ]);
    expect(all.body.data[1]).toMatchObject({
      email: bounced[2],
      reason: 'hard_bounce',
      source: 'webhook',
      emailId: expect.any(String),
    });

    const hard = await stack.api.get('/suppressions?reason=hard_bounce&limit=2', sk);
    expect(hard.body).toMatchObject({ total: 3, hasMore: true });
    const next = await stack.api.get(
      `/suppressions?reason=hard_bounce&limit=2&cursor=${hard.body.cursor}`,
      sk,
    );
    expect(next.body).toMatchObject({ total: 0, hasMore: false, cursor: null });
    expect([...hard.body.data, ...next.body.data].map((s: { email: string }) => s.email)).toEqual(
      [...bounced].reverse(),
    );
    const complaints = await stack.api.get('/suppressions?reason=complaint', sk);
    expect(complaints.body.data).toEqual([
      expect.objectContaining({ email: complainer, reason: 'complaint' }),
    ]);
    expect((await stack.api.get('/suppressions?reason=unknown', sk)).status).toBe(422);
    expect((await stack.api.get('/suppressions?limit=101', sk)).status).toBe(422);
    expect((await stack.api.get('/suppressions?limit=100', sk)).status).toBe(200);
  });

  it('lifts a suppression: the next send goes out, the contact has the event; 404 after', async () => {
    const { sk, domain } = await sender();
    const to = uniqueEmail('lifted');
    const { emailId, contactId } = await sent(sk, domain, to);
    await report({ type: 'bounced', emailId });
    const blocked = await stack.api.post('/v1/send', {
      ...sk,
      body: { to, subject: 'Blocked', body: 'b', from: `a@${domain}` },
    });
    expect(blocked.body.data.emails[0].status).toBe('SUPPRESSED');

    const lifted = await stack.api.delete(`/suppressions/${encodeURIComponent(to)}`, sk);
    expect(lifted.status, lifted.text).toBe(200);
    expect(lifted.body).toMatchObject({ email: to, reason: 'hard_bounce', source: 'webhook' });
    const events = (await stack.api.get(`/events/contact/${contactId}`, sk)).body.data;
    expect(events.map((e: { name: string }) => e.name)).toContain('email.suppression_lifted');

    const again = await stack.api.post('/v1/send', {
      ...sk,
      body: { to, subject: 'Again', body: 'b', from: `a@${domain}` },
    });
    expect(again.body.data.emails[0].status).toBe('QUEUED');
    await stack.smtp.waitFor((m) => m.to.includes(to) && m.parsed.subject === 'Again');

    const twice = await stack.api.delete(`/suppressions/${encodeURIComponent(to)}`, sk);
    expect(twice.status).toBe(404);
    expect(twice.body.error.statusCode).toBe(404);
    expect((await stack.api.delete('/suppressions/not-an-address', sk)).status).toBe(422);
    // Another project's list is its own: nothing of this one to lift there.
    const other = await projectFixture(stack.api);
    await report({ type: 'bounced', emailId: (await sent(sk, domain, uniqueEmail('x'))).emailId });
    expect((await stack.api.get('/suppressions', other.sk)).body.total).toBe(0);
  });
});

describe('the bounce policy', () => {
  it('answers its defaults and takes each limit at its edge', async () => {
    const { sk } = await sender();
    const policy = await stack.api.get('/bounce-policy', sk);
    expect(policy.body).toEqual({
      suppressHardBounces: true,
      softBounceLimit: 3,
      softBounceWindowDays: 30,
    });
    const put = (body: Record<string, unknown>) => stack.api.put('/bounce-policy', { ...sk, body });
    expect((await put({ softBounceLimit: 100, softBounceWindowDays: 365 })).status).toBe(200);
    for (const bad of [
      { softBounceLimit: 101 },
      { softBounceLimit: 0 },
      { softBounceWindowDays: 366 },
      { softBounceWindowDays: 1.5 },
      { suppressHardBounces: 'yes' },
      { unknown: true },
    ]) {
      const res = await put(bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
    }
    // Refused bodies changed nothing.
    expect((await stack.api.get('/bounce-policy', sk)).body).toEqual({
      suppressHardBounces: true,
      softBounceLimit: 100,
      softBounceWindowDays: 365,
    });
  });

  it('suppresses after N soft bounces of one address in the window, counting each email once', async () => {
    const { sk, domain } = await sender();
    await stack.api.put('/bounce-policy', { ...sk, body: { softBounceLimit: 2 } });
    const to = uniqueEmail('soft');
    const first = await sent(sk, domain, to);
    expect(
      (await report({ type: 'bounced', bounceType: 'soft', emailId: first.emailId })).body,
    ).toMatchObject({ applied: true });
    // The same report again counts nothing.
    expect(
      (await report({ type: 'bounced', bounceType: 'soft', emailId: first.emailId })).body,
    ).toMatchObject({ applied: false });
    expect((await stack.api.get('/suppressions', sk)).body.total).toBe(0);
    const second = await sent(sk, domain, to);
    await report({ type: 'bounced', bounceType: 'soft', emailId: second.emailId });
    const list = (await stack.api.get('/suppressions', sk)).body;
    expect(list.data).toEqual([
      expect.objectContaining({ email: to, reason: 'soft_bounce', source: 'webhook' }),
    ]);
    // Soft bounces do not unsubscribe.
    expect((await stack.api.get(`/contacts/${first.contactId}`, sk)).body.subscribed).toBe(true);
  });

  it('with suppressHardBounces off, a hard bounce is recorded but suppresses nobody', async () => {
    const { sk, domain } = await sender();
    await stack.api.put('/bounce-policy', { ...sk, body: { suppressHardBounces: false } });
    const to = uniqueEmail('kept');
    const { emailId, contactId } = await sent(sk, domain, to);
    expect((await report({ type: 'bounced', emailId })).body.applied).toBe(true);
    expect(await statusOf(emailId)).toBe('BOUNCED');
    expect((await stack.api.get('/suppressions', sk)).body.total).toBe(0);
    expect((await stack.api.get(`/contacts/${contactId}`, sk)).body.subscribed).toBe(true);
    // A complaint still suppresses whatever the policy.
    const other = uniqueEmail('complains');
    const complaint = await sent(sk, domain, other);
    await report({ type: 'complained', emailId: complaint.emailId });
    expect((await stack.api.get('/suppressions', sk)).body.data).toEqual([
      expect.objectContaining({ email: other, reason: 'complaint' }),
    ]);
  });
});
