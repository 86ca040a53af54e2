import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signLinkToken } from '../../domain/tracking/tokens.js';
import { campaignStats, createCampaign, waitForCampaign } from '../helpers/campaigns.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import type { RequestOptions } from '../helpers/http.js';
import { projectFixture } from '../helpers/project-fixture.js';
import type { CapturedEmail } from '../helpers/smtp-capture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';
import { buildWorkflow, ended, waitForExecution, waitForExecutions } from '../helpers/workflows.js';

// Double opt-in (issue 26, item 2): the setting, the public signup form and the public key's
// subscriptions that wait for a confirmation by email, the signed link (GET shows, POST
// confirms once), its expiry and replay, and the one eligibility rule that keeps campaign and
// workflow mail from contacts that have not confirmed.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

type Key = { key: string };

/** A client address of the test's own: the public form's limit counts per project and address. */
const clientAddress = (): string => {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
};

async function optInProject({ enabled = true }: { enabled?: boolean } = {}) {
  const fixture = await projectFixture(stack.api);
  const { id: domainId, domain } = await verifiedDomain(
    stack.api,
    dns,
    fixture.sk.key,
    uniqueDomain('optin'),
  );
  if (enabled) {
    const res = await stack.api.put('/double-opt-in', {
      ...fixture.sk,
      body: { enabled: true },
    });
    expect(res.status, res.text).toBe(200);
  }
  return { ...fixture, pk: { key: fixture.project.publicKey }, domain, domainId };
}

async function subscribe(
  pk: Key,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return stack.api.post('/v1/subscribe', { ...pk, body, headers });
}

async function contactByEmail(sk: Key, email: string) {
  const found = await stack.api.post('/contacts/lookup', { ...sk, body: { emails: [email] } });
  expect(found.status, found.text).toBe(200);
  const id = found.body.found[0]?.id as string | undefined;
  if (!id) return undefined;
  const res = await stack.api.get(`/contacts/${id}`, sk);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function eventsOf(sk: Key, contactId: string): Promise<{ name: string; data: any }[]> {
  const res = await stack.api.get(`/events/contact/${contactId}?limit=100`, sk);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

const subscribedEvents = async (sk: Key, contactId: string) =>
  (await eventsOf(sk, contactId)).filter((e) => e.name === 'contact.subscribed');

const confirmationsTo = (address: string): CapturedEmail[] =>
  stack.smtp.messages.filter(
    (m) => m.to.includes(address) && /Confirm your subscription/.test(m.parsed.subject ?? ''),
  );

/** The confirmation email's link, once the SMTP server has the `nth` (1-based) one. */
async function confirmationLink(address: string, nth = 1): Promise<string> {
  await stack.smtp.waitFor(() => confirmationsTo(address).length >= nth);
  const mail = confirmationsTo(address)[nth - 1] as CapturedEmail;
  const link = /href="([^"]*\/confirm-subscription\/[^"]+)"/.exec(mail.parsed.html ?? '')?.[1];
  expect(link, mail.parsed.html).toBeDefined();
  return link as string;
}

const pageRequest = (method: 'GET' | 'POST', link: string) =>
  fetch(link, { method, redirect: 'manual' }).then(async (res) => ({
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text: await res.text(),
  }));

/** A confirmation token signed with the stack's key: for links no email carried. */
const craftedLink = (payload: { c: string; p: string; x: number }): string =>
  `${stack.api.baseUrl}/confirm-subscription/${signLinkToken(
    { k: 'd', ...payload },
    stack.env.ENCRYPTION_KEY as string,
  )}`;

async function listStates(sk: Key, state?: string): Promise<string[]> {
  const res = await stack.api.get(
    `/contacts?limit=100${state ? `&subscriptionState=${state}` : ''}`,
    sk,
  );
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((c: { email: string }) => c.email);
}

describe('the double opt-in setting', () => {
  it('is off by default; an admin turns it on once a confirmation email can be sent', async () => {
    const fixture = await projectFixture(stack.api);
    const sk = fixture.sk;
    const initial = await stack.api.get('/double-opt-in', sk);
    expect(initial.status, initial.text).toBe(200);
    expect(initial.body).toEqual({ enabled: false, templateId: null, linkValidDays: 7 });

    // Without a verified domain the built-in email has no sender.
    const early = await stack.api.put('/double-opt-in', { ...sk, body: { enabled: true } });
    expect(early.status, early.text).toBe(422);
    expect(early.body.error.errors).toEqual([
      expect.objectContaining({ field: 'enabled', code: 'unverified_domain' }),
    ]);
    expect((await stack.api.get('/double-opt-in', sk)).body.enabled).toBe(false);

    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('setting'));
    for (const body of [
      { enabled: 'yes' },
      { enabled: true, extra: 1 },
      { templateId: 'not-a-uuid' },
      [],
    ]) {
      const bad = await stack.api.put('/double-opt-in', { ...sk, body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    }
    const malformed = await stack.api.put('/double-opt-in', { ...sk, rawBody: '{"enabled":' });
    expect(malformed.status).toBe(400);
    expect((await stack.api.get('/double-opt-in', sk)).body.enabled).toBe(false);

    // A chosen template must be the project's, link {{ confirmUrl }} and send from a verified domain.
    const template = async (body: string, from = `hello@${domain}`, key = sk) => {
      const res = await stack.api.post('/templates', {
        ...key,
        body: { name: 'Confirm', subject: 'Please confirm', body, from, type: 'TRANSACTIONAL' },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const missing = await stack.api.put('/double-opt-in', {
      ...sk,
      body: { enabled: true, templateId: randomUUID() },
    });
    expect(missing.status, missing.text).toBe(404);
    const other = await projectFixture(stack.api);
    const { domain: otherDomain } = await verifiedDomain(
      stack.api,
      dns,
      other.sk.key,
      uniqueDomain('other'),
    );
    const othersTemplate = await template(
      '<a href="{{ confirmUrl }}">Yes</a>',
      `hi@${otherDomain}`,
      other.sk,
    );
    const foreign = await stack.api.put('/double-opt-in', {
      ...sk,
      body: { enabled: true, templateId: othersTemplate },
    });
    expect(foreign.status, foreign.text).toBe(404);
    const noLink = await stack.api.put('/double-opt-in', {
      ...sk,
      body: { enabled: true, templateId: await template('<p>Welcome</p>') },
    });
    expect(noLink.status, noLink.text).toBe(422);
    expect(noLink.body.error.errors[0]).toMatchObject({
      field: 'templateId',
      code: 'missing_confirm_url',
    });

    const onBuiltIn = await stack.api.put('/double-opt-in', { ...sk, body: { enabled: true } });
    expect(onBuiltIn.status, onBuiltIn.text).toBe(200);
    expect(onBuiltIn.body).toEqual({ enabled: true, templateId: null, linkValidDays: 7 });
    const chosen = await template('<p>Hi {{ firstName }}</p><a href="{{ confirmUrl }}">Yes</a>');
    const onChosen = await stack.api.put('/double-opt-in', {
      ...sk,
      body: { enabled: true, templateId: chosen },
    });
    expect(onChosen.status, onChosen.text).toBe(200);
    expect((await stack.api.get('/double-opt-in', sk)).body).toEqual({
      enabled: true,
      templateId: chosen,
      linkValidDays: 7,
    });
    // A field left out takes its default: off, the built-in email.
    const off = await stack.api.put('/double-opt-in', { ...sk, body: {} });
    expect(off.body).toEqual({ enabled: false, templateId: null, linkValidDays: 7 });

    // The public key only tracks and subscribes.
    const publicKey = await stack.api.get('/double-opt-in', { key: fixture.project.publicKey });
    expect(publicKey.status).toBe(401);
    expect(publicKey.body.error.code).toBe('INVALID_API_KEY');
  });
});

describe('POST /v1/subscribe', () => {
  it('without double opt-in subscribes at once, with the public or the secret key', async () => {
    const { sk, pk } = await optInProject({ enabled: false });
    const reader = uniqueEmail('Reader');
    const res = await subscribe(pk, { email: reader.toUpperCase(), data: { plan: 'pro' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        contact: expect.any(String),
        confirmationRequired: false,
        timestamp: expect.any(String),
      },
    });
    const contact = await contactByEmail(sk, reader.toLowerCase());
    expect(contact).toMatchObject({
      id: res.body.data.contact,
      subscribed: true,
      subscriptionState: 'subscribed',
      optIn: { requestedAt: null, confirmedAt: null },
      data: { plan: 'pro' },
    });

    // An unsubscribed contact signing up again is subscribed, and the flip is recorded.
    const gone = uniqueEmail('gone');
    await stack.api.post('/contacts', { ...sk, body: { email: gone, subscribed: false } });
    const again = await subscribe(sk, { email: gone });
    expect(again.status, again.text).toBe(200);
    const back = await contactByEmail(sk, gone);
    expect(back.subscriptionState).toBe('subscribed');
    expect((await subscribedEvents(sk, back.id)).map((e) => e.data)).toEqual([
      { source: 'subscribe-form' },
    ]);
  });

  it('refuses bad input and bad keys, and changes nothing', async () => {
    const { sk, pk } = await optInProject();
    const email = uniqueEmail('refused');
    const cases: [RequestOptions, number, string][] = [
      [{ ...pk, body: { email: 'not-an-email' } }, 422, 'VALIDATION_ERROR'],
      [{ ...pk, body: { data: { plan: 'pro' } } }, 422, 'VALIDATION_ERROR'],
      [{ ...pk, body: { email, data: 'pro' } }, 422, 'VALIDATION_ERROR'],
      [{ ...pk, body: [] }, 422, 'VALIDATION_ERROR'],
      [{ ...pk, rawBody: `{"email": "${email}"` }, 400, 'BAD_REQUEST'],
      [{ body: { email } }, 401, 'INVALID_API_KEY'],
      [{ key: 'pk_notakeyatallnotakeyatallnotakey', body: { email } }, 401, 'INVALID_API_KEY'],
    ];
    for (const [options, status, code] of cases) {
      const res = await stack.api.post('/v1/subscribe', options);
      expect(res.status, res.text).toBe(status);
      expect(res.body).toMatchObject({ success: false, error: { code, statusCode: status } });
    }
    expect(await contactByEmail(sk, email)).toBeUndefined();
    // The public key still works on /v1/track and /v1/subscribe alone.
    const send = await stack.api.post('/v1/send', {
      ...pk,
      body: { to: email, subject: 'x', body: 'y', from: 'a@b.example' },
    });
    expect(send.status).toBe(401);
  });

  it('counts the public key 20 times an hour per client address: the 21st is 429', async () => {
    const { sk, pk } = await optInProject({ enabled: false });
    const address = clientAddress();
    const headers = { 'X-Forwarded-For': address };
    for (let i = 1; i <= 20; i += 1) {
      const res = await subscribe(pk, { email: uniqueEmail(`limit${i}`) }, headers);
      expect(res.status, `request ${i}: ${res.text}`).toBe(200);
    }
    const refused = uniqueEmail('refused');
    const over = await subscribe(pk, { email: refused }, headers);
    expect(over.status, over.text).toBe(429);
    expect(over.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(over.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await contactByEmail(sk, refused)).toBeUndefined();

    // Another address has its own budget; the secret key (a server) is not counted per address.
    const elsewhere = await subscribe(
      pk,
      { email: refused },
      { 'X-Forwarded-For': clientAddress() },
    );
    expect(elsewhere.status, elsewhere.text).toBe(200);
    const server = await subscribe(sk, { email: uniqueEmail('server') }, headers);
    expect(server.status, server.text).toBe(200);
    // Per project: the same address signing up to another project's list is not refused.
    const other = await projectFixture(stack.api);
    const otherList = await subscribe(
      { key: other.project.publicKey },
      { email: refused },
      headers,
    );
    expect(otherList.status, otherList.text).toBe(200);
    // Bad input is refused by validation before the throttle is consulted.
    const bad = await subscribe(pk, { email: 'nope' }, headers);
    expect(bad.status).toBe(422);
  });
});

describe('a subscription that waits for its confirmation', () => {
  it('sends the confirmation email; the link shows a page, confirms once and fires contact.subscribed once', async () => {
    const { sk, pk, project, domain } = await optInProject();
    // A workflow on contact.subscribed: the confirmation starts it, once.
    const welcome = await stack.api.post('/templates', {
      ...sk,
      body: {
        name: 'Welcome',
        subject: 'Welcome aboard',
        body: '<p>Welcome {{ firstName }}</p>',
        from: `hello@${domain}`,
        type: 'MARKETING',
      },
    });
    expect(welcome.status, welcome.text).toBe(201);
    const workflow = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'contact.subscribed',
      steps: { send: { type: 'SEND_EMAIL', config: { templateId: welcome.body.id } } },
    });

    const reader = uniqueEmail('reader');
    const before = Date.now();
    const res = await subscribe(pk, { email: reader, data: { firstName: 'Ada' } });
    const after = Date.now();
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.confirmationRequired).toBe(true);

    const pending = await contactByEmail(sk, reader);
    expect(pending).toMatchObject({
      subscribed: false,
      subscriptionState: 'pending',
      optIn: { requestedAt: expect.any(String), confirmedAt: null },
      data: { firstName: 'Ada' },
    });
    expect(await listStates(sk, 'pending')).toEqual([reader]);
    expect(await listStates(sk, 'subscribed')).toEqual([]);
    expect(await listStates(sk, 'unsubscribed')).toEqual([]);
    const badFilter = await stack.api.get('/contacts?subscriptionState=waiting', sk);
    expect(badFilter.status).toBe(422);

    // The built-in email: from no-reply@ the verified domain, not tracked, no unsubscribe headers.
    const link = await confirmationLink(reader);
    const mail = confirmationsTo(reader)[0] as CapturedEmail;
    expect(mail.parsed.from?.address).toBe(`no-reply@${domain}`);
    expect(mail.parsed.from?.name).toBe('Test project');
    expect(mail.parsed.subject).toBe('Confirm your subscription to Test project');
    expect(mail.parsed.html).not.toContain('/t/o/');
    expect(mail.parsed.headers.find((h) => h.key === 'list-unsubscribe')).toBeUndefined();
    expect(link.startsWith(`${stack.api.baseUrl}/confirm-subscription/`)).toBe(true);
    const token = link.split('/confirm-subscription/')[1] as string;
    const payload = JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString());
    expect(payload).toMatchObject({ k: 'd', c: pending.id, p: project.id });
    const week = 7 * 24 * 3600;
    expect(payload.x).toBeGreaterThanOrEqual(Math.floor(before / 1000) + week);
    expect(payload.x).toBeLessThanOrEqual(Math.ceil(after / 1000) + week + 60);

    // Opening the link changes nothing (mail scanners open links).
    const shown = await pageRequest('GET', link);
    expect(shown.status).toBe(200);
    expect(shown.type).toContain('text/html');
    expect(shown.text).toContain('Confirm your subscription');
    expect(shown.text).toContain(`action="${link}"`);
    expect((await contactByEmail(sk, reader)).subscriptionState).toBe('pending');

    const confirmed = await pageRequest('POST', link);
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('Subscription confirmed');
    const now = await contactByEmail(sk, reader);
    expect(now).toMatchObject({
      subscribed: true,
      subscriptionState: 'subscribed',
      optIn: { requestedAt: pending.optIn.requestedAt, confirmedAt: expect.any(String) },
    });
    expect((await subscribedEvents(sk, now.id)).map((e) => e.data)).toEqual([
      { source: 'double-opt-in' },
    ]);
    expect(await listStates(sk, 'subscribed')).toEqual([reader]);

    // The link used again: the same answer for both methods, nothing more recorded.
    for (const method of ['POST', 'GET'] as const) {
      const replay = await pageRequest(method, link);
      expect(replay.status, method).toBe(200);
      expect(replay.text).toContain('Already confirmed');
    }
    expect(await subscribedEvents(sk, now.id)).toHaveLength(1);

    // The workflow ran once, and its (marketing) email reached the confirmed contact.
    const [execution] = await waitForExecutions(stack.api, sk, workflow.id);
    await waitForExecution(stack.api, sk, workflow.id, execution!.id, ended);
    await stack.smtp.waitFor((m) => m.to.includes(reader) && m.parsed.subject === 'Welcome aboard');
    expect(await waitForExecutions(stack.api, sk, workflow.id)).toHaveLength(1);

    // Unsubscribed since: the old link does not subscribe again.
    await stack.api.patch(`/contacts/${now.id}`, { ...sk, body: { subscribed: false } });
    const stale = await pageRequest('POST', link);
    expect(stale.status).toBe(200);
    expect(stale.text).toContain('Nothing to confirm');
    expect((await contactByEmail(sk, reader)).subscriptionState).toBe('unsubscribed');
    expect(await subscribedEvents(sk, now.id)).toHaveLength(1);
  });

  it('with the public key on /v1/track: a new contact and `subscribed: true` wait; the secret key does not', async () => {
    const { sk, pk } = await optInProject();
    const track = (key: Key, email: string, extra: Record<string, unknown> = {}) =>
      stack.api.post('/v1/track', { ...key, body: { email, event: 'visited', ...extra } });

    // A new contact tracked by the public key would be subscribed: it is asked instead.
    const visitor = uniqueEmail('visitor');
    expect((await track(pk, visitor)).status).toBe(200);
    expect((await contactByEmail(sk, visitor)).subscriptionState).toBe('pending');
    const link = await confirmationLink(visitor);
    const asked = (await contactByEmail(sk, visitor)).optIn.requestedAt;
    // Tracked again while it waits (even with subscribed: true): not asked again (the ask and
    // its email are one statement).
    expect((await track(pk, visitor, { subscribed: true })).status).toBe(200);
    expect((await contactByEmail(sk, visitor)).optIn.requestedAt).toBe(asked);

    // `subscribed: false` is honoured at once, and asks nothing.
    const quiet = uniqueEmail('quiet');
    expect((await track(pk, quiet, { subscribed: false })).status).toBe(200);
    expect((await contactByEmail(sk, quiet)).subscriptionState).toBe('unsubscribed');

    // An existing unsubscribed contact with `subscribed: true` waits; without it, it stays.
    const returning = uniqueEmail('returning');
    await stack.api.post('/contacts', { ...sk, body: { email: returning, subscribed: false } });
    expect((await track(pk, returning)).status).toBe(200);
    expect((await contactByEmail(sk, returning)).subscriptionState).toBe('unsubscribed');
    expect((await track(pk, returning, { subscribed: true })).status).toBe(200);
    const waiting = await contactByEmail(sk, returning);
    expect(waiting.subscriptionState).toBe('pending');
    await confirmationLink(returning);

    // The secret key is the project's own server: it subscribes at once.
    const direct = uniqueEmail('direct');
    await stack.api.post('/contacts', { ...sk, body: { email: direct, subscribed: false } });
    expect((await track(sk, direct, { subscribed: true })).status).toBe(200);
    const subscribed = await contactByEmail(sk, direct);
    expect(subscribed.subscriptionState).toBe('subscribed');
    expect((await subscribedEvents(sk, subscribed.id)).map((e) => e.data)).toEqual([
      { source: 'track' },
    ]);

    // The visitor confirms: exactly one confirmation email reached it.
    expect((await pageRequest('POST', link)).text).toContain('Subscription confirmed');
    const confirmedVisitor = await contactByEmail(sk, visitor);
    expect(confirmedVisitor.subscriptionState).toBe('subscribed');
    // A later signup of a subscribed contact asks nothing either: every email the visitor got
    // is counted once the returning contact's (queued after it) has arrived.
    expect((await subscribe(pk, { email: visitor })).status).toBe(200);
    expect((await contactByEmail(sk, visitor)).optIn.requestedAt).toBe(asked);
    expect((await subscribe(pk, { email: returning })).status).toBe(200);
    await confirmationLink(returning, 2);
    expect(confirmationsTo(visitor)).toHaveLength(1);
    expect(confirmationsTo(quiet)).toHaveLength(0);
    expect(await listStates(sk, 'pending')).toEqual([returning]);

    // The setting is read with the key on every request: turned off, the very next public key
    // track subscribes at once; turned on again, the next one asks again.
    const off = await stack.api.put('/double-opt-in', { ...sk, body: { enabled: false } });
    expect(off.status, off.text).toBe(200);
    const late = uniqueEmail('late');
    expect((await track(pk, late)).status).toBe(200);
    expect((await contactByEmail(sk, late)).subscriptionState).toBe('subscribed');
    const on = await stack.api.put('/double-opt-in', { ...sk, body: { enabled: true } });
    expect(on.status, on.text).toBe(200);
    const later = uniqueEmail('later');
    expect((await track(pk, later)).status).toBe(200);
    expect((await contactByEmail(sk, later)).subscriptionState).toBe('pending');
  });

  it('uses the chosen template, and refuses (409) while no verified domain can send it', async () => {
    const { sk, pk, domain, domainId } = await optInProject();
    const chosen = await stack.api.post('/templates', {
      ...sk,
      body: {
        name: 'Confirm',
        subject: 'One click, {{ firstName }}',
        body: '<p>Hi {{ firstName }} from {{ projectName }}</p><a href="{{ confirmUrl }}">Yes, subscribe me</a>',
        from: `lists@${domain}`,
        fromName: 'The List',
        type: 'MARKETING',
      },
    });
    expect(chosen.status, chosen.text).toBe(201);
    const set = await stack.api.put('/double-opt-in', {
      ...sk,
      body: { enabled: true, templateId: chosen.body.id },
    });
    expect(set.status, set.text).toBe(200);
    const reader = uniqueEmail('chosen');
    expect((await subscribe(pk, { email: reader, data: { firstName: 'Grace' } })).status).toBe(200);
    const mail = await stack.smtp.waitFor((m) => m.to.includes(reader));
    expect(mail.parsed.subject).toBe('One click, Grace');
    expect(mail.parsed.from).toMatchObject({ address: `lists@${domain}`, name: 'The List' });
    expect(mail.parsed.html).toContain('Hi Grace from Test project');
    // Sent as transactional mail whatever the template's type: no unsubscribe headers.
    expect(mail.parsed.headers.find((h) => h.key === 'list-unsubscribe')).toBeUndefined();
    const link = /href="([^"]+)"/.exec(mail.parsed.html ?? '')?.[1] as string;
    expect(link).toMatch(/\/confirm-subscription\//);
    expect((await pageRequest('POST', link)).text).toContain('Subscription confirmed');

    // The template and its domain removed: the form answers 409 and writes nothing.
    expect((await stack.api.delete(`/templates/${chosen.body.id}`, sk)).status).toBe(204);
    const removed = await stack.api.delete(`/domains/${domainId}`, sk);
    expect(removed.status, removed.text).toBeLessThan(300);
    const late = uniqueEmail('late');
    const refused = await subscribe(pk, { email: late });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect(await contactByEmail(sk, late)).toBeUndefined();
  });
});

describe('what a contact that has not confirmed receives', () => {
  it('gets no campaign and no workflow email, of any type; a confirmed one does', async () => {
    const { sk, pk, domain } = await optInProject();
    const notice = await stack.api.post('/templates', {
      ...sk,
      body: {
        name: 'Notice',
        subject: 'Your account notice',
        body: '<p>Notice for {{ email }}</p>',
        from: `hello@${domain}`,
        type: 'TRANSACTIONAL',
      },
    });
    expect(notice.status, notice.text).toBe(201);
    const workflow = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'signup',
      steps: { send: { type: 'SEND_EMAIL', config: { templateId: notice.body.id } } },
    });

    // Pending: a new contact tracked by the public key. Control: one the project added itself.
    const pending = uniqueEmail('pending');
    const member = uniqueEmail('member');
    await stack.api.post('/contacts', { ...sk, body: { email: member } });
    for (const [key, email] of [
      [pk, pending],
      [sk, member],
    ] as const) {
      const res = await stack.api.post('/v1/track', { ...key, body: { email, event: 'signup' } });
      expect(res.status, res.text).toBe(200);
    }
    expect((await contactByEmail(sk, pending)).subscriptionState).toBe('pending');

    const executions = await waitForExecutions(stack.api, sk, workflow.id, { count: 2 });
    const emailOf = async (email: string) => {
      const contact = await contactByEmail(sk, email);
      const execution = executions.find((x) => x.contactId === contact.id);
      const done = await waitForExecution(stack.api, sk, workflow.id, execution!.id, ended);
      const step = done.steps.find((s) => s.type === 'SEND_EMAIL');
      const res = await stack.api.get(`/emails/${step?.result.emailId}`, sk);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    // The transactional workflow email is withheld from the contact that has not confirmed.
    expect(await emailOf(pending)).toMatchObject({
      status: 'SUPPRESSED',
      suppressionReason: 'unconfirmed',
      type: 'TRANSACTIONAL',
    });
    expect((await emailOf(member)).status).not.toBe('SUPPRESSED');
    await stack.smtp.waitFor(
      (m) => m.to.includes(member) && m.parsed.subject === 'Your account notice',
    );

    // A campaign to everyone skips it (counted, never silently).
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Spring',
      subject: 'Spring news',
      body: '<p>News</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });
    const sent = await stack.api.post(`/campaigns/${campaign.id}/send`, { ...sk, body: {} });
    expect(sent.status, sent.text).toBe(200);
    expect((await waitForCampaign(stack.api, sk, campaign.id)).status).toBe('SENT');
    const stats = await campaignStats(stack.api, sk, campaign.id);
    expect(stats).toMatchObject({ recipients: 2, skipped: 1, sent: 1 });
    await stack.smtp.waitFor((m) => m.to.includes(member) && m.parsed.subject === 'Spring news');
    await confirmationLink(pending);
    const toPending = stack.smtp.messages.filter((m) => m.to.includes(pending));
    expect(toPending.map((m) => m.parsed.subject)).toEqual([
      'Confirm your subscription to Test project',
    ]);

    // Mail sent to the address on purpose by the project's server still goes (transactional).
    const direct = await stack.api.post('/v1/send', {
      ...sk,
      body: { to: pending, subject: 'Receipt', body: '<p>Thanks</p>', from: `shop@${domain}` },
    });
    expect(direct.status, direct.text).toBe(200);
    expect(direct.body.data.emails[0].status).toBe('QUEUED');
  });
});

describe('the confirmation link', () => {
  it('expires after its 7 days: a clear 410 page, nothing confirmed, and a new link on request', async () => {
    const { sk, pk, project } = await optInProject();
    const reader = uniqueEmail('late');
    expect((await subscribe(pk, { email: reader })).status).toBe(200);
    await confirmationLink(reader);
    const contact = await contactByEmail(sk, reader);
    const now = Math.floor(Date.now() / 1000);

    // Its last second has passed: expired. A link with a minute left still works (below).
    const expired = craftedLink({ c: contact.id, p: project.id, x: now - 1 });
    for (const method of ['GET', 'POST'] as const) {
      const page = await pageRequest(method, expired);
      expect(page.status, method).toBe(410);
      expect(page.text).toContain('This link has expired');
      expect(page.text).toContain(`action="${expired}/resend"`);
    }
    expect((await contactByEmail(sk, reader)).subscriptionState).toBe('pending');
    expect(await subscribedEvents(sk, contact.id)).toHaveLength(0);

    // A new link, by email, from the expired one's page.
    const resent = await pageRequest('POST', `${expired}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.text).toContain('Check your inbox');
    const fresh = await confirmationLink(reader, 2);
    expect(fresh).not.toBe(expired);

    const lastMinute = craftedLink({ c: contact.id, p: project.id, x: now + 60 });
    expect((await pageRequest('POST', lastMinute)).text).toContain('Subscription confirmed');
    expect((await pageRequest('POST', fresh)).text).toContain('Already confirmed');
    expect(await subscribedEvents(sk, contact.id)).toHaveLength(1);
    // Once confirmed, an expired link says so too, and asking for a new one sends nothing.
    expect((await pageRequest('GET', expired)).text).toContain('Already confirmed');
    expect((await pageRequest('POST', `${expired}/resend`)).text).toContain('Already confirmed');
    expect((await contactByEmail(sk, reader)).subscriptionState).toBe('subscribed');
  });

  it("answers 404 to a changed, made-up or other kind of token, and to another project's contact", async () => {
    const { sk, pk, project } = await optInProject();
    const reader = uniqueEmail('forged');
    expect((await subscribe(pk, { email: reader })).status).toBe(200);
    const link = await confirmationLink(reader);
    const contact = await contactByEmail(sk, reader);
    const token = link.split('/confirm-subscription/')[1] as string;
    const [body, mac] = token.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, x: payload.x + 86400 })).toString(
      'base64url',
    );
    const other = await optInProject();
    const otherReader = uniqueEmail('other');
    expect((await subscribe(other.pk, { email: otherReader })).status).toBe(200);
    const otherContact = await contactByEmail(other.sk, otherReader);
    const base = `${stack.api.baseUrl}/confirm-subscription`;
    const unsubscribeKind = signLinkToken(
      { k: 'u', c: contact.id, p: project.id },
      stack.env.ENCRYPTION_KEY as string,
    );
    for (const target of [
      `${base}/${forged}.${mac}`,
      `${base}/${body}.${mac.slice(0, -2)}xx`,
      `${base}/garbage-token-123`,
      `${base}/${unsubscribeKind}`,
      // Signed, but naming a contact of another project.
      craftedLink({ c: otherContact.id, p: project.id, x: payload.x }),
      craftedLink({ c: randomUUID(), p: project.id, x: payload.x }),
    ]) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await pageRequest(method, target);
        expect(res.status, `${method} ${target}`).toBe(404);
      }
    }
    const resend = await pageRequest('POST', `${base}/garbage-token-123/resend`);
    expect(resend.status).toBe(404);
    expect((await contactByEmail(sk, reader)).subscriptionState).toBe('pending');
    expect((await contactByEmail(other.sk, otherReader)).subscriptionState).toBe('pending');
  });
});
