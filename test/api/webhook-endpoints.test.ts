import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { signUp } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

/*
 * Webhook endpoints through the API, with WEBHOOK_ALLOW_PRIVATE off (the default): the rules of
 * an endpoint (URL, event types, the 20 per project), its secret and rotation, and another
 * project's ids. No delivery is made here (no event any endpoint asks for happens, and no
 * endpoint address is ever connected to); webhook-deliveries.test.ts sends them.
 */

let stack: TestStack;
let dns: DnsServer;
// A public address (never connected to: nothing is delivered in this file).
const PUBLIC_HOST = 'hooks.webhook.test';
const publicUrl = (path = '/hook'): string => `https://${PUBLIC_HOST}${path}`;

beforeAll(async () => {
  dns = await startDnsServer({ zones: ['webhook.test'] });
  dns.publishA(PUBLIC_HOST, '93.184.216.34');
  dns.publishA('inside.webhook.test', '127.0.0.2');
  dns.publishA('lan.webhook.test', '10.1.2.3');
  stack = await startStack({ env: { DNS_SERVERS: dns.address } });
});
afterAll(async () => {
  await stack?.stop();
  await dns?.stop();
});

type Sk = { key: string };

async function create(sk: Sk, body: Record<string, unknown>) {
  return stack.api.post('/webhook-endpoints', { ...sk, body });
}

async function endpointCount(projectId: string): Promise<number> {
  return withDatabase(async (db) => {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_endpoints WHERE project_id = $1',
      [projectId],
    );
    return rows[0]?.n ?? 0;
  });
}

describe('webhook endpoints', () => {
  it('creates an endpoint showing its secret once, lists, reads, changes and deletes it', async () => {
    const { sk } = await projectFixture(stack.api);
    const created = await create(sk, {
      url: publicUrl('/orders'),
      eventTypes: ['email.sent', 'email.open', 'signup', 'email.sent', 'segment.vip.entry'],
      description: 'Order system',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      url: publicUrl('/orders'),
      description: 'Order system',
      // Plunk's spelling read as ours; each type once.
      eventTypes: ['email.sent', 'email.opened', 'signup', 'segment.vip.entry'],
      enabled: true,
      failingSince: null,
      disabledAt: null,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const id = created.body.id as string;

    const list = await stack.api.get('/webhook-endpoints', sk);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.text).not.toContain(created.body.secret);
    const one = await stack.api.get(`/webhook-endpoints/${id}`, sk);
    expect(one.body).toEqual(list.body.data[0]);
    expect(one.body.secret).toBeUndefined();

    const patched = await stack.api.patch(`/webhook-endpoints/${id}`, {
      ...sk,
      body: { eventTypes: ['contact.unsubscribed'], enabled: false, description: null },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      url: publicUrl('/orders'),
      eventTypes: ['contact.unsubscribed'],
      enabled: false,
      description: null,
    });
    expect(patched.body.disabledAt).not.toBeNull();
    const enabled = await stack.api.patch(`/webhook-endpoints/${id}`, {
      ...sk,
      body: { enabled: true, url: publicUrl('/v2') },
    });
    expect(enabled.body).toMatchObject({ enabled: true, disabledAt: null, url: publicUrl('/v2') });

    // A disabled endpoint takes no test event (it would never be sent).
    await stack.api.patch(`/webhook-endpoints/${id}`, { ...sk, body: { enabled: false } });
    const test = await stack.api.post(`/webhook-endpoints/${id}/test`, sk);
    expect(test.status, test.text).toBe(409);

    const deleted = await stack.api.delete(`/webhook-endpoints/${id}`, sk);
    expect(deleted.status).toBe(200);
    expect((await stack.api.get(`/webhook-endpoints/${id}`, sk)).status).toBe(404);
    expect((await stack.api.delete(`/webhook-endpoints/${id}`, sk)).status).toBe(404);
  });

  it('takes 20 endpoints per project and refuses the 21st, until one is deleted', async () => {
    const { sk, project } = await projectFixture(stack.api);
    const ids: string[] = [];
    for (let i = 1; i <= 20; i += 1) {
      const res = await create(sk, { url: publicUrl(`/n${i}`), eventTypes: ['email.sent'] });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
    }
    const refused = await create(sk, { url: publicUrl('/n21'), eventTypes: ['email.sent'] });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.errors[0]).toMatchObject({ code: 'too_many_endpoints' });
    expect(await endpointCount(project.id)).toBe(20);
    // Twenty at once from a full project: none gets in.
    const burst = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        create(sk, { url: publicUrl(`/burst${i}`), eventTypes: ['email.sent'] }),
      ),
    );
    expect(burst.map((r) => r.status)).toEqual([422, 422, 422, 422, 422]);
    await stack.api.delete(`/webhook-endpoints/${ids[0]}`, sk);
    expect((await create(sk, { url: publicUrl('/n21'), eventTypes: ['x'] })).status).toBe(201);
    expect(await endpointCount(project.id)).toBe(20);
  });

  it('keeps each field within its limit: 100 event types, 255-character names, 2048-character URLs, 200-character descriptions', async () => {
    const { sk, project } = await projectFixture(stack.api);
    const types = (n: number) => Array.from({ length: n }, (_, i) => `event_${i}`);
    const longUrl = (n: number) => publicUrl(`/${'a'.repeat(n - publicUrl('/').length)}`);
    expect(longUrl(2048)).toHaveLength(2048);
    const edges: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ eventTypes: types(100) }, { eventTypes: types(101) }],
      [{ eventTypes: ['e'.repeat(255)] }, { eventTypes: ['e'.repeat(256)] }],
      [{ url: longUrl(2048) }, { url: longUrl(2049) }],
      [{ description: 'd'.repeat(200) }, { description: 'd'.repeat(201) }],
    ];
    for (const [passes, fails] of edges) {
      const base = { url: publicUrl(), eventTypes: ['email.sent'] };
      const ok = await create(sk, { ...base, ...passes });
      expect(ok.status, ok.text).toBe(201);
      const before = await endpointCount(project.id);
      const bad = await create(sk, { ...base, ...fails });
      expect(bad.status, JSON.stringify(fails).slice(0, 80)).toBe(422);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
      expect(await endpointCount(project.id)).toBe(before);
    }
    for (const body of [
      { url: publicUrl(), eventTypes: [] },
      { url: publicUrl() },
      { eventTypes: ['email.sent'] },
      { url: publicUrl(), eventTypes: [' '] },
      { url: publicUrl(), eventTypes: ['email.sent'], secret: 'whsec_mine' },
    ]) {
      const bad = await create(sk, body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
    }
  });

  it('refuses bad URLs and private, loopback and link-local addresses with a 400, on create and on change', async () => {
    const { sk, project } = await projectFixture(stack.api);
    const refusals: [string, string][] = [
      ['not a url', 'not a valid absolute URL'],
      ['ftp://hooks.webhook.test/x', 'ftp: URLs are not allowed'],
      ['https://user:pw@hooks.webhook.test/x', 'user name or password'],
      ['http://127.0.0.1:8080/hook', '127.0.0.1 is a loopback address'],
      ['http://[::1]/hook', '::1 is a loopback address'],
      ['http://[::ffff:127.0.0.1]/hook', 'is an IPv4-mapped address'],
      ['http://localhost:3000/hook', 'localhost is a loopback address'],
      ['http://10.0.0.7/hook', '10.0.0.7 is a private address'],
      ['http://192.168.1.20/hook', '192.168.1.20 is a private address'],
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
      ['http://inside.webhook.test/hook', '127.0.0.2 is a loopback address'],
      ['http://lan.webhook.test/hook', '10.1.2.3 is a private address'],
      ['http://missing.webhook.test/hook', 'missing.webhook.test has no address'],
    ];
    for (const [url, reason] of refusals) {
      const res = await create(sk, { url, eventTypes: ['email.sent'] });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
      expect(res.body.error.message, url).toContain(reason);
      expect(res.body.error.errors[0].field).toBe('url');
    }
    expect(await endpointCount(project.id)).toBe(0);

    const created = await create(sk, { url: publicUrl(), eventTypes: ['email.sent'] });
    expect(created.status).toBe(201);
    const changed = await stack.api.patch(`/webhook-endpoints/${created.body.id}`, {
      ...sk,
      body: { url: 'http://10.0.0.7/hook' },
    });
    expect(changed.status).toBe(400);
    expect((await stack.api.get(`/webhook-endpoints/${created.body.id}`, sk)).body.url).toBe(
      publicUrl(),
    );
  });

  it('rotates the secret, the previous one signing for the overlap asked (at most 7 days)', async () => {
    const { sk } = await projectFixture(stack.api);
    const created = await create(sk, { url: publicUrl(), eventTypes: ['email.sent'] });
    const id = created.body.id as string;
    const rotated = await stack.api.post(`/webhook-endpoints/${id}/rotate-secret`, {
      ...sk,
      body: {},
    });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const overlapEnd = Date.parse(rotated.body.previousSecretExpiresAt);
    expect(overlapEnd - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(overlapEnd - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

    const week = await stack.api.post(`/webhook-endpoints/${id}/rotate-secret`, {
      ...sk,
      body: { overlapSeconds: 7 * 24 * 3600 },
    });
    expect(week.status).toBe(200);
    for (const overlapSeconds of [7 * 24 * 3600 + 1, -1, 1.5]) {
      const bad = await stack.api.post(`/webhook-endpoints/${id}/rotate-secret`, {
        ...sk,
        body: { overlapSeconds },
      });
      expect(bad.status, String(overlapSeconds)).toBe(422);
    }
    const now = await stack.api.post(`/webhook-endpoints/${id}/rotate-secret`, {
      ...sk,
      body: { overlapSeconds: 0 },
    });
    expect(now.body.previousSecretExpiresAt).toBeNull();
    expect(now.body.secretRotatedAt).not.toBeNull();
  });

  it("answers 404 for another project's endpoint and delivery ids, and changes nothing", async () => {
    const a = await projectFixture(stack.api);
    const b = await projectFixture(stack.api);
    const created = await create(a.sk, { url: publicUrl(), eventTypes: ['email.sent'] });
    const id = created.body.id as string;
    const missing = randomUUID();
    const calls: [string, string, unknown?][] = [
      ['GET', `/webhook-endpoints/${id}`],
      ['PATCH', `/webhook-endpoints/${id}`, { enabled: false, url: publicUrl('/stolen') }],
      ['DELETE', `/webhook-endpoints/${id}`],
      ['POST', `/webhook-endpoints/${id}/rotate-secret`, {}],
      ['POST', `/webhook-endpoints/${id}/test`],
      ['GET', `/webhook-endpoints/${id}/deliveries`],
      ['GET', `/webhook-endpoints/${id}/deliveries/${missing}`],
      ['POST', `/webhook-endpoints/${id}/deliveries/${missing}/retry`],
      ['POST', `/webhook-endpoints/${id}/deliveries/retry`, { since: new Date(0).toISOString() }],
    ];
    for (const [method, path, body] of calls) {
      const res = await stack.api.request(method, path, { ...b.sk, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await stack.api.get('/webhook-endpoints', b.sk)).body.data).toEqual([]);
    const own = await stack.api.get(`/webhook-endpoints/${id}`, a.sk);
    expect(own.body).toMatchObject({ enabled: true, url: publicUrl() });
    expect(own.body.secretRotatedAt).toBeNull();
    // A's own missing delivery is a 404 too.
    const none = await stack.api.get(`/webhook-endpoints/${id}/deliveries/${missing}`, a.sk);
    expect(none.status).toBe(404);
  });

  it('is for ADMINs and OWNERs: a MEMBER is refused', async () => {
    const { owner, project, sk } = await projectFixture(stack.api);
    const created = await create(sk, { url: publicUrl(), eventTypes: ['email.sent'] });
    const member = await signUp(stack.api, 'member');
    const admin = await signUp(stack.api, 'admin');
    for (const [user, role] of [
      [member, 'MEMBER'],
      [admin, 'ADMIN'],
    ] as const) {
      const added = await stack.api.post(`/projects/${project.id}/members`, {
        cookie: owner.cookie,
        body: { email: user.email, role },
      });
      expect(added.status, added.text).toBe(201);
    }
    const as = (cookie: string) => ({ cookie, headers: { 'X-Project-Id': project.id } });
    expect((await stack.api.get('/webhook-endpoints', as(member.cookie))).status).toBe(403);
    expect(
      (await stack.api.get(`/webhook-endpoints/${created.body.id}/deliveries`, as(member.cookie)))
        .status,
    ).toBe(403);
    expect((await stack.api.get('/webhook-endpoints', as(admin.cookie))).status).toBe(200);
    const byAdmin = await stack.api.post('/webhook-endpoints', {
      ...as(admin.cookie),
      body: { url: publicUrl('/admin'), eventTypes: ['signup'] },
    });
    expect(byAdmin.status, byAdmin.text).toBe(201);
  });
});
