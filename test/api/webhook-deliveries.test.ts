import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { eventually } from '../helpers/eventually.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import type { CapturedEmail } from '../helpers/smtp-capture.js';
import { startStack, type TestStack } from '../helpers/stack.js';
import {
  startWebhookReceiver,
  verifiedBody,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.js';

/*
 * Event webhooks delivered to a loopback receiver (WEBHOOK_ALLOW_PRIVATE on, as for the WEBHOOK
 * step's tests), with the retry schedule shortened the way other durations are in tests: a
 * second between attempts, 15 s of trying, an endpoint disabled after 25 s of failures.
 */

let stack: TestStack;
let dns: DnsServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  dns = await startDnsServer({ zones: ['example.test'] });
  stack = await startStack({
    env: {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      DNS_SERVERS: dns.address,
      WEBHOOK_RETRY_DELAYS: '1s',
      WEBHOOK_RETRY_WINDOW: '15s',
      WEBHOOK_DISABLE_AFTER: '25s',
    },
  });
});
afterAll(async () => {
  await stack?.stop();
  await dns?.stop();
  await receiver?.stop();
});

type Sk = { key: string };
interface Endpoint {
  id: string;
  secret: string;
  path: string;
}

let paths = 0;
async function endpoint(sk: Sk, eventTypes: string[]): Promise<Endpoint> {
  paths += 1;
  const path = `/hook-${paths}`;
  const res = await stack.api.post('/webhook-endpoints', {
    ...sk,
    body: { url: receiver.url(path), eventTypes },
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id, secret: res.body.secret, path };
}

async function track(sk: Sk, email: string, event: string, data?: Record<string, unknown>) {
  const res = await stack.api.post('/v1/track', { ...sk, body: { email, event, data } });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { contact: string; event: string };
}

function arrivals(path: string, count: number, what: string): Promise<ReceivedWebhook[]> {
  return eventually(
    () => {
      const got = receiver.at(path);
      return got.length >= count && got;
    },
    { what, describe: () => `${receiver.at(path).length} of ${count} arrived` },
  );
}

async function deliveries(sk: Sk, endpointId: string, query = '') {
  const res = await stack.api.get(`/webhook-endpoints/${endpointId}/deliveries${query}`, sk);
  expect(res.status, res.text).toBe(200);
  return res.body as { data: Record<string, any>[]; total: number; hasMore: boolean };
}

async function deliveryWhen(
  sk: Sk,
  endpointId: string,
  deliveryId: string,
  done: (d: Record<string, any>) => boolean,
  what: string,
) {
  let last: Record<string, any> | undefined;
  return eventually(
    async () => {
      const res = await stack.api.get(
        `/webhook-endpoints/${endpointId}/deliveries/${deliveryId}`,
        sk,
      );
      last = res.body;
      return done(res.body) && res.body;
    },
    { what, timeoutMs: 60_000, describe: () => JSON.stringify(last) },
  );
}

describe('event webhooks', () => {
  it('delivers each event an endpoint asked for, signed (Standard Webhooks), and logs it', async () => {
    const { sk, project } = await projectFixture(stack.api);
    const both = await endpoint(sk, ['signup', 'contact.unsubscribed']);
    const signupsOnly = await endpoint(sk, ['signup']);
    const other = await endpoint(sk, ['order.placed']);
    receiver.answer((r) =>
      r.path === both.path ? { status: 200, body: 'x'.repeat(3000) } : { status: 204 },
    );
    const email = uniqueEmail('hooked').toLowerCase();
    const tracked = await track(sk, email, 'signup', { plan: 'pro' });
    // The subscription flag flipping records contact.unsubscribed in the same statement.
    await stack.api.post('/v1/track', {
      ...sk,
      body: { email, event: 'login', subscribed: false },
    });

    const [first] = await arrivals(signupsOnly.path, 1, 'the signup at the second endpoint');
    const got = await arrivals(both.path, 1, 'the signup at the first endpoint');
    const signup = got.find((r) => JSON.parse(r.body).type === 'signup') as ReceivedWebhook;
    const body = verifiedBody(signup, both.secret) as Record<string, any>;
    expect(body).toEqual({
      type: 'signup',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        id: tracked.event,
        name: 'signup',
        createdAt: body.timestamp,
        contact: { id: tracked.contact, email },
        data: { plan: 'pro' },
      },
    });
    expect(signup.headers['content-type']).toBe('application/json');
    expect(signup.headers['webhook-id']).toMatch(/^[0-9a-f-]{36}$/);
    // Signed with each endpoint's own secret: the other's does not verify.
    expect(() => verifiedBody(first!, both.secret)).toThrow();
    expect(verifiedBody(first!, signupsOnly.secret)).toMatchObject({ type: 'signup' });

    const unsubscribed = (await arrivals(both.path, 2, 'contact.unsubscribed')).find(
      (r) => JSON.parse(r.body).type === 'contact.unsubscribed',
    ) as ReceivedWebhook;
    expect(verifiedBody(unsubscribed, both.secret)).toMatchObject({
      type: 'contact.unsubscribed',
      data: { contact: { id: tracked.contact, email } },
    });

    // The log: one delivery per event and endpoint, its answer's first 1 KB and its latency.
    const log = await eventually(
      async () => {
        const page = await deliveries(sk, both.id);
        return page.data.every((d) => d.status === 'SUCCEEDED') && page.total === 2 && page;
      },
      { what: 'both deliveries logged as SUCCEEDED' },
    );
    const logged = log.data.find((d) => d.type === 'signup')!;
    expect(logged).toMatchObject({
      id: signup.headers['webhook-id'],
      endpointId: both.id,
      eventId: tracked.event,
      status: 'SUCCEEDED',
      attempts: 1,
      responseStatus: 200,
      error: null,
      nextAttemptAt: null,
      payload: body,
    });
    expect(logged.responseBody).toBe('x'.repeat(1024));
    expect(logged.latencyMs).toEqual(expect.any(Number));
    expect(logged.deliveredAt).not.toBeNull();
    expect((await deliveries(sk, signupsOnly.id)).data[0]).toMatchObject({
      status: 'SUCCEEDED',
      responseStatus: 204,
      responseBody: '',
    });
    // Nothing for an endpoint that did not ask, nor twice for those that did.
    expect(receiver.at(other.path)).toEqual([]);
    expect((await deliveries(sk, other.id)).total).toBe(0);
    expect(receiver.at(signupsOnly.path)).toHaveLength(1);
    const rows = await withDatabase((db) =>
      db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE project_id = $1', [
        project.id,
      ]),
    );
    expect(rows.rows[0].n).toBe(3);
  });

  it('delivers the service events of an email (email.sent) like tracked ones', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('hooks'));
    const hook = await endpoint(sk, ['email.sent']);
    receiver.answer(() => ({ status: 200 }));
    const to = uniqueEmail('reader').toLowerCase();
    const sent = await stack.api.post('/v1/send', {
      ...sk,
      body: { to, from: `hello@${domain}`, subject: 'Hooked', body: '<p>Hi</p>' },
    });
    expect(sent.status, sent.text).toBe(200);
    const emailId = sent.body.data.emails[0].email as string;
    const [request] = await arrivals(hook.path, 1, 'email.sent');
    expect(verifiedBody(request!, hook.secret)).toMatchObject({
      type: 'email.sent',
      data: { name: 'email.sent', contact: { email: to }, data: { emailId, subject: 'Hooked' } },
    });
  });

  it('tries a failing endpoint again with the same webhook-id until it answers 2xx', async () => {
    const { sk } = await projectFixture(stack.api);
    const hook = await endpoint(sk, ['flaky']);
    let calls = 0;
    receiver.answer((r) => {
      if (r.path !== hook.path) return { status: 200 };
      calls += 1;
      return calls <= 2 ? { status: 503, body: `busy ${calls}` } : { status: 200, body: 'fine' };
    });
    await track(sk, uniqueEmail('flaky'), 'flaky');
    const got = await arrivals(hook.path, 3, 'three attempts');
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const request of got)
      expect(verifiedBody(request, hook.secret)).toMatchObject({ type: 'flaky' });
    const id = String(got[0]!.headers['webhook-id']);
    const done = await deliveryWhen(sk, hook.id, id, (d) => d.status === 'SUCCEEDED', 'success');
    expect(done).toMatchObject({ attempts: 3, responseStatus: 200, responseBody: 'fine' });
    const endpointNow = await stack.api.get(`/webhook-endpoints/${hook.id}`, sk);
    expect(endpointNow.body).toMatchObject({ enabled: true, failingSince: null });
    expect(receiver.at(hook.path)).toHaveLength(3);
  });

  it('gives a delivery up after its window; one, or all failed since a time, can be retried', async () => {
    const { sk } = await projectFixture(stack.api);
    const hook = await endpoint(sk, ['doomed']);
    let down = true;
    receiver.answer((r) =>
      r.path === hook.path && down ? { status: 500, body: 'down' } : { status: 200, body: 'up' },
    );
    const since = new Date().toISOString();
    for (const label of ['a', 'b', 'c']) await track(sk, uniqueEmail(label), 'doomed');
    const failed = await eventually(
      async () => {
        const page = await deliveries(sk, hook.id, '?status=FAILED');
        return page.total === 3 && page.data;
      },
      { what: 'three deliveries FAILED after their window', timeoutMs: 90_000 },
    );
    for (const delivery of failed) {
      expect(delivery.attempts).toBeGreaterThan(1);
      expect(delivery).toMatchObject({
        responseStatus: 500,
        responseBody: 'down',
        error: 'The endpoint answered 500',
        nextAttemptAt: null,
      });
      const tries = receiver.at(hook.path).filter((r) => r.headers['webhook-id'] === delivery.id);
      expect(tries).toHaveLength(delivery.attempts);
    }
    expect((await deliveries(sk, hook.id, '?status=PENDING,SUCCEEDED')).total).toBe(0);
    expect(
      (await stack.api.get(`/webhook-endpoints/${hook.id}`, sk)).body.failingSince,
    ).not.toBeNull();

    // Still down: a retry by hand is one attempt, then FAILED again.
    const [one, ...rest] = failed as [Record<string, any>, ...Record<string, any>[]];
    const retried = await stack.api.post(
      `/webhook-endpoints/${hook.id}/deliveries/${one.id}/retry`,
      sk,
    );
    expect(retried.status, retried.text).toBe(202);
    expect(retried.body).toMatchObject({ id: one.id, status: 'PENDING' });
    const again = await deliveryWhen(
      sk,
      hook.id,
      one.id,
      (d) => d.status === 'FAILED' && d.attempts === one.attempts + 1,
      'the retry to fail once',
    );
    expect(again.error).toBe('The endpoint answered 500');

    down = false;
    const retriedOne = await stack.api.post(
      `/webhook-endpoints/${hook.id}/deliveries/${one.id}/retry`,
      sk,
    );
    expect(retriedOne.status).toBe(202);
    // A PENDING delivery is not retried twice.
    const twice = await stack.api.post(
      `/webhook-endpoints/${hook.id}/deliveries/${one.id}/retry`,
      sk,
    );
    expect([202, 409]).toContain(twice.status);
    await deliveryWhen(sk, hook.id, one.id, (d) => d.status === 'SUCCEEDED', 'the retry to pass');

    const future = await stack.api.post(`/webhook-endpoints/${hook.id}/deliveries/retry`, {
      ...sk,
      body: { since: new Date(Date.now() + 3600_000).toISOString() },
    });
    expect(future.body).toEqual({ retried: 0 });
    const all = await stack.api.post(`/webhook-endpoints/${hook.id}/deliveries/retry`, {
      ...sk,
      body: { since },
    });
    expect(all.status, all.text).toBe(202);
    expect(all.body).toEqual({ retried: rest.length });
    for (const delivery of rest) {
      await deliveryWhen(sk, hook.id, delivery.id, (d) => d.status === 'SUCCEEDED', 'retried');
    }
    const bad = await stack.api.post(`/webhook-endpoints/${hook.id}/deliveries/retry`, {
      ...sk,
      body: { since: 'yesterday' },
    });
    expect(bad.status).toBe(422);
  });

  it('sends a test event on request', async () => {
    const { sk } = await projectFixture(stack.api);
    const hook = await endpoint(sk, ['email.bounced']);
    receiver.answer(() => ({ status: 200, body: 'pong' }));
    const queued = await stack.api.post(`/webhook-endpoints/${hook.id}/test`, sk);
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body).toMatchObject({ type: 'webhook.test', status: 'PENDING', eventId: null });
    const [request] = await arrivals(hook.path, 1, 'the test event');
    expect(request!.headers['webhook-id']).toBe(queued.body.id);
    expect(verifiedBody(request!, hook.secret)).toMatchObject({
      type: 'webhook.test',
      data: { endpointId: hook.id },
    });
    await deliveryWhen(sk, hook.id, queued.body.id, (d) => d.status === 'SUCCEEDED', 'logged');
  });

  it('signs with both secrets during a rotation overlap, and with the new one alone after', async () => {
    const { sk } = await projectFixture(stack.api);
    const hook = await endpoint(sk, ['rotate']);
    receiver.answer(() => ({ status: 200 }));
    const overlap = await stack.api.post(`/webhook-endpoints/${hook.id}/rotate-secret`, {
      ...sk,
      body: { overlapSeconds: 3600 },
    });
    expect(overlap.status).toBe(200);
    await track(sk, uniqueEmail('r1'), 'rotate');
    const [during] = await arrivals(hook.path, 1, 'a delivery during the overlap');
    expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifiedBody(during!, hook.secret)).toMatchObject({ type: 'rotate' });
    expect(verifiedBody(during!, overlap.body.secret)).toMatchObject({ type: 'rotate' });

    const ended = await stack.api.post(`/webhook-endpoints/${hook.id}/rotate-secret`, {
      ...sk,
      body: { overlapSeconds: 0 },
    });
    await track(sk, uniqueEmail('r2'), 'rotate');
    const after = (await arrivals(hook.path, 2, 'a delivery after the overlap'))[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifiedBody(after, ended.body.secret)).toMatchObject({ type: 'rotate' });
    expect(() => verifiedBody(after, overlap.body.secret)).toThrow();
    expect(() => verifiedBody(after, hook.secret)).toThrow();
  });

  it('disables an endpoint that keeps failing, fails what it had pending, and emails its owner', async () => {
    const { sk, owner } = await projectFixture(stack.api);
    const hook = await endpoint(sk, ['broken']);
    receiver.answer((r) => (r.path === hook.path ? { status: 502 } : { status: 200 }));
    // Events keep coming while the endpoint fails, until its failures have run long enough.
    const disabled = await eventually(
      async () => {
        await track(sk, uniqueEmail('broken'), 'broken');
        const res = await stack.api.get(`/webhook-endpoints/${hook.id}`, sk);
        return !res.body.enabled && res.body;
      },
      { what: 'the endpoint to be disabled', timeoutMs: 120_000, intervalMs: 2000 },
    );
    expect(disabled.failingSince).not.toBeNull();
    expect(disabled.disabledAt).not.toBeNull();
    const toldOwner = (m: CapturedEmail): boolean =>
      m.to.includes(owner.email) && Boolean(m.parsed.subject?.includes('was disabled'));
    const mail = await stack.smtp.waitFor(toldOwner, { timeoutMs: 60_000 });
    expect(mail.parsed.text).toContain(receiver.url(hook.path));
    // What was pending failed with the endpoint; nothing new is queued for it, nothing is sent.
    await eventually(async () => (await deliveries(sk, hook.id, '?status=PENDING')).total === 0, {
      what: 'no delivery of the disabled endpoint left PENDING',
    });
    const sentBefore = receiver.at(hook.path).length;
    const total = (await deliveries(sk, hook.id)).total;
    const late = await track(sk, uniqueEmail('after'), 'broken');
    await eventually(
      () =>
        withDatabase(async (db) => {
          const { rows } = await db.query('SELECT 1 FROM event_outbox WHERE event_id = $1', [
            late.event,
          ]);
          return rows.length === 0;
        }),
      { what: 'the late event to be dispatched' },
    );
    expect((await deliveries(sk, hook.id)).total).toBe(total);
    expect(receiver.at(hook.path)).toHaveLength(sentBefore);
    // One email per disabling.
    expect(stack.smtp.messages.filter(toldOwner)).toHaveLength(1);
    // Enabled again, it starts afresh.
    const enabled = await stack.api.patch(`/webhook-endpoints/${hook.id}`, {
      ...sk,
      body: { enabled: true },
    });
    expect(enabled.body).toMatchObject({ enabled: true, failingSince: null, disabledAt: null });
  });
});
