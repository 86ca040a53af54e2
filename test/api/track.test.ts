import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('POST /v1/track', () => {
  it('creates the contact, records the event and answers the Plunk shape', async () => {
    const { project } = await projectFixture(stack.api);
    const email = uniqueEmail();
    const res = await stack.api.post('/v1/track', {
      key: project.publicKey,
      body: {
        email,
        event: 'signed-up',
        data: { plan: 'pro', coupon: { value: 'X1', persistent: false } },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toEqual({
      contact: expect.any(String),
      event: expect.any(String),
      timestamp: expect.any(String),
    });
    const sk = { key: project.secretKey };
    const contact = (await stack.api.get(`/contacts/${res.body.data.contact}`, sk)).body;
    expect(contact).toMatchObject({ email, subscribed: true, data: { plan: 'pro' } });
    const events = (await stack.api.get(`/events/contact/${contact.id}`, sk)).body.data;
    expect(events).toHaveLength(1);
    // The one-off value is on the event, not on the contact.
    expect(events[0]).toMatchObject({
      id: res.body.data.event,
      name: 'signed-up',
      data: { plan: 'pro', coupon: 'X1' },
    });
  });

  it('records a new event on every call', async () => {
    const { project } = await projectFixture(stack.api);
    const email = uniqueEmail();
    const first = await stack.api.post('/v1/track', {
      key: project.publicKey,
      body: { email, event: 'opened-app' },
    });
    const second = await stack.api.post('/v1/track', {
      key: project.publicKey,
      body: { email, event: 'opened-app' },
    });
    expect(second.body.data.contact).toBe(first.body.data.contact);
    expect(second.body.data.event).not.toBe(first.body.data.event);
    const events = await stack.api.get('/events?event=opened-app', { key: project.secretKey });
    expect(events.body.total).toBe(2);
  });

  it('keeps an existing subscription unless told, and emits the flip event when told', async () => {
    const { project } = await projectFixture(stack.api);
    const sk = { key: project.secretKey };
    const email = uniqueEmail();
    const created = await stack.api.post('/v1/track', {
      ...sk,
      body: { email, event: 'a', subscribed: false },
    });
    const id = created.body.data.contact;
    expect((await stack.api.get(`/contacts/${id}`, sk)).body.subscribed).toBe(false);
    await stack.api.post('/v1/track', { ...sk, body: { email, event: 'b' } });
    expect((await stack.api.get(`/contacts/${id}`, sk)).body.subscribed).toBe(false);
    await stack.api.post('/v1/track', { ...sk, body: { email, event: 'c', subscribed: true } });
    expect((await stack.api.get(`/contacts/${id}`, sk)).body.subscribed).toBe(true);
    const names = (await stack.api.get(`/events/contact/${id}`, sk)).body.data.map(
      (e: { name: string }) => e.name,
    );
    expect(names).toEqual(['contact.subscribed', 'c', 'b', 'a']);
  });

  it('refuses reserved event names with reserved_event and records nothing', async () => {
    const { project } = await projectFixture(stack.api);
    const email = uniqueEmail();
    for (const event of [
      'email.opened',
      'email.anything',
      'contact.subscribed',
      'contact.unsubscribed',
      'segment.vip.entry',
      'segment.vip.exit',
    ]) {
      const res = await stack.api.post('/v1/track', {
        key: project.publicKey,
        body: { email, event },
      });
      expect(res.status, event).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.errors).toEqual([
        expect.objectContaining({ field: 'event', code: 'reserved_event' }),
      ]);
    }
    for (const event of ['contact.updated', 'segment.vip', 'emails.sent']) {
      expect(
        (await stack.api.post('/v1/track', { key: project.publicKey, body: { email, event } }))
          .status,
        event,
      ).toBe(200);
    }
    const lookup = await stack.api.post('/contacts/lookup', {
      key: project.secretKey,
      body: { emails: [email] },
    });
    expect(lookup.body.found).toHaveLength(1);
    expect((await stack.api.get('/events', { key: project.secretKey })).body.total).toBe(3);
  });

  it('validates the body', async () => {
    const { project } = await projectFixture(stack.api);
    const res = await stack.api.post('/v1/track', {
      key: project.publicKey,
      body: { email: 'nope', event: '' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'email',
      'event',
    ]);
  });

  it('keeps all 50 keys of 50 concurrent calls for one new email: one contact, 50 events', async () => {
    const { project } = await projectFixture(stack.api);
    const email = uniqueEmail('race');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        stack.api.post('/v1/track', {
          key: project.publicKey,
          body: { email, event: 'race', data: { [`k${i}`]: i } },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const contactIds = new Set(results.map((r) => r.body.data.contact));
    expect(contactIds.size).toBe(1);
    const sk = { key: project.secretKey };
    const contact = (await stack.api.get(`/contacts/${[...contactIds][0]}`, sk)).body;
    expect(Object.keys(contact.data)).toHaveLength(50);
    for (let i = 0; i < 50; i += 1) expect(contact.data[`k${i}`]).toBe(i);
    expect((await stack.api.get('/contacts', sk)).body.total).toBe(1);
    expect((await stack.api.get('/events?event=race', sk)).body.total).toBe(50);
  });

  it('writes concurrent tracks together, each answered with its own contact and event', async () => {
    const { project } = await projectFixture(stack.api);
    const other = await projectFixture(stack.api);
    // 60 contacts of this project tracked twice each, and 20 of another project, all at once.
    const emails = Array.from({ length: 60 }, (_, i) => uniqueEmail(`batch${i}`));
    const calls = [
      ...[...emails, ...emails].map((email, i) => ({ key: project.publicKey, email, n: i })),
      ...emails
        .slice(0, 20)
        .map((email, i) => ({ key: other.project.publicKey, email, n: 200 + i })),
    ];
    const results = await Promise.all(
      calls.map(({ key, email, n }) =>
        stack.api.post('/v1/track', {
          key,
          body: { email, event: 'batched', data: { [`k${n}`]: n } },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(calls.length).fill(200));

    const rows = await withDatabase(
      async (db) =>
        (
          await db.query<{
            id: string;
            project_id: string;
            contact_id: string;
            email: string;
            data: Record<string, number>;
            at: string;
          }>(
            // The time as text: a Date would drop its microseconds.
            `SELECT e.id, e.project_id, e.contact_id, c.email, e.data, e.created_at::text AS at
               FROM events e JOIN contacts c ON c.id = e.contact_id
              WHERE e.project_id = ANY($1::uuid[]) AND e.name = 'batched'`,
            [[project.id, other.project.id]],
          )
        ).rows,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.size).toBe(calls.length);
    // Each answer names the event it wrote, and that event is its own contact's, with its data.
    calls.forEach((call, i) => {
      const answer = results[i]?.body.data;
      expect(byId.get(answer.event), call.email).toMatchObject({
        contact_id: answer.contact,
        email: call.email,
        project_id: call.key === project.publicKey ? project.id : other.project.id,
        data: { [`k${call.n}`]: call.n },
      });
    });
    // Both calls of a contact reached its data.
    const sk = { key: project.secretKey };
    const contact = (await stack.api.get(`/contacts/${results[0]?.body.data.contact}`, sk)).body;
    expect(contact.data).toMatchObject({ k0: 0, k60: 60 });
    // Events written in one statement share its transaction's time: the 120 tracks of the
    // project did not take 120 statements.
    const times = new Set(rows.filter((r) => r.project_id === project.id).map((r) => r.at));
    expect(times.size).toBeLessThan(120);
  });

  it('answers a reused Idempotency-Key with 409 and records one event', async () => {
    const { project } = await projectFixture(stack.api);
    const email = uniqueEmail();
    const headers = { 'Idempotency-Key': `order-${email}` };
    const first = await stack.api.post('/v1/track', {
      key: project.publicKey,
      headers,
      body: { email, event: 'order' },
    });
    expect(first.status).toBe(200);
    const second = await stack.api.post('/v1/track', {
      key: project.publicKey,
      headers,
      body: { email, event: 'order' },
    });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(
      (await stack.api.get('/events?event=order', { key: project.secretKey })).body.total,
    ).toBe(1);
    // Concurrent retries with one fresh key: exactly one wins.
    const racing = await Promise.all(
      Array.from({ length: 5 }, () =>
        stack.api.post('/v1/track', {
          key: project.publicKey,
          headers: { 'Idempotency-Key': 'race-key' },
          body: { email, event: 'order' },
        }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(
      (await stack.api.get('/events?event=order', { key: project.secretKey })).body.total,
    ).toBe(2);
  });

  it('frees the Idempotency-Key of a request that failed validation', async () => {
    const { project } = await projectFixture(stack.api);
    const headers = { 'Idempotency-Key': 'retry-after-422' };
    const email = uniqueEmail();
    expect(
      (
        await stack.api.post('/v1/track', {
          key: project.publicKey,
          headers,
          body: { email, event: 'email.sent' },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await stack.api.post('/v1/track', {
          key: project.publicKey,
          headers,
          body: { email, event: 'ok' },
        })
      ).status,
    ).toBe(200);
    const bad = await stack.api.post('/v1/track', {
      key: project.publicKey,
      headers: { 'Idempotency-Key': 'é'.repeat(3) },
      body: { email, event: 'ok' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.errors[0].field).toBe('Idempotency-Key');
  });

  it('keeps Idempotency-Keys per project', async () => {
    const a = await projectFixture(stack.api);
    const b = await projectFixture(stack.api);
    const headers = { 'Idempotency-Key': 'shared-key' };
    expect(
      (
        await stack.api.post('/v1/track', {
          key: a.project.publicKey,
          headers,
          body: { email: uniqueEmail(), event: 'x' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await stack.api.post('/v1/track', {
          key: b.project.publicKey,
          headers,
          body: { email: uniqueEmail(), event: 'x' },
        })
      ).status,
    ).toBe(200);
  });

  it('works through the dashboard alias with a session', async () => {
    const { owner, project } = await projectFixture(stack.api);
    const res = await stack.api.post('/events/track', {
      cookie: owner.cookie,
      headers: { 'X-Project-Id': project.id },
      body: { email: uniqueEmail(), event: 'from-dashboard' },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });
});

describe('the public key', () => {
  it('works on /v1/track and nowhere else, not even its dashboard alias (401 INVALID_API_KEY)', async () => {
    const { project } = await projectFixture(stack.api);
    const pk = { key: project.publicKey };
    const id = '00000000-0000-7000-8000-000000000000';
    const routes: [string, string, unknown?][] = [
      ['GET', '/contacts'],
      ['POST', '/contacts', { email: uniqueEmail() }],
      ['GET', `/contacts/${id}`],
      ['PATCH', `/contacts/${id}`, { data: {} }],
      ['DELETE', `/contacts/${id}`],
      ['POST', '/contacts/lookup', { emails: ['a@b.co'] }],
      ['GET', '/contacts/fields'],
      ['GET', '/contacts/fields/plan/values'],
      ['GET', '/contacts/fields/plan/usage'],
      ['DELETE', '/contacts/fields/plan'],
      ['POST', '/contacts/import'],
      ['GET', `/contacts/import/${id}`],
      ['POST', '/contacts/bulk-subscribe', { contactIds: [id] }],
      ['POST', '/contacts/bulk-unsubscribe', { contactIds: [id] }],
      ['POST', '/contacts/bulk-delete', { contactIds: [id] }],
      ['GET', `/contacts/bulk/${id}`],
      ['POST', '/events/track', { email: uniqueEmail(), event: 'x' }],
      ['GET', '/events'],
      ['GET', '/events/stats'],
      ['GET', `/events/contact/${id}`],
      ['GET', '/events/names'],
      ['GET', '/events/x/usage'],
      ['DELETE', '/events/x'],
    ];
    for (const [method, path, body] of routes) {
      const res = await stack.api.request(method, path, { ...pk, body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
    }
  });
});
