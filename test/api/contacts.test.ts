import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

type Writer = (
  key: string,
  email: string,
  body: { subscribed?: boolean; data?: Record<string, unknown> },
) => Promise<{ id: string; data: Record<string, unknown>; subscribed: boolean }>;

// The same data rules, written through each of the three doors.
const writers: Record<string, Writer> = {
  'POST /contacts': async (key, email, body) => {
    const res = await stack.api.post('/contacts', { key, body: { email, ...body } });
    expect([200, 201], res.text).toContain(res.status);
    return res.body;
  },
  'PATCH /contacts/:id': async (key, email, body) => {
    const found = await stack.api.post('/contacts/lookup', { key, body: { emails: [email] } });
    let id = found.body.found[0]?.id as string | undefined;
    if (!id) id = (await stack.api.post('/contacts', { key, body: { email } })).body.id;
    const res = await stack.api.patch(`/contacts/${id}`, { key, body });
    expect(res.status, res.text).toBe(200);
    return res.body;
  },
  'POST /v1/track': async (key, email, body) => {
    const res = await stack.api.post('/v1/track', {
      key,
      body: { email, event: 'rule-check', ...body },
    });
    expect(res.status, res.text).toBe(200);
    return (await stack.api.get(`/contacts/${res.body.data.contact}`, { key })).body;
  },
};

describe.each(Object.entries(writers))('data rules through %s', (_door, write) => {
  it('stores primitives and plain objects (rules 1, 2)', async () => {
    const { sk } = await projectFixture(stack.api);
    const email = uniqueEmail();
    const contact = await write(sk.key, email, {
      data: { plan: 'pro', seats: 3, trial: false, address: { city: 'Oslo' } },
    });
    expect(contact.data).toEqual({
      plan: 'pro',
      seats: 3,
      trial: false,
      address: { city: 'Oslo' },
    });
  });

  it('deletes a key given null and ignores an empty string (rules 3, 4)', async () => {
    const { sk } = await projectFixture(stack.api);
    const email = uniqueEmail();
    await write(sk.key, email, { data: { plan: 'pro', company: 'Acme', city: 'Oslo' } });
    const contact = await write(sk.key, email, { data: { plan: null, company: '', team: 'red' } });
    expect(contact.data).toEqual({ company: 'Acme', city: 'Oslo', team: 'red' });
  });

  it('does not store {value, persistent:false} (rule 5)', async () => {
    const { sk } = await projectFixture(stack.api);
    const email = uniqueEmail();
    const contact = await write(sk.key, email, {
      data: { code: { value: '1234', persistent: false }, kept: 1 },
    });
    expect(contact.data).toEqual({ kept: 1 });
  });

  it('drops reserved keys silently (rule 6)', async () => {
    const { sk } = await projectFixture(stack.api);
    const email = uniqueEmail();
    const reserved = {
      id: 'x',
      svc_id: 'x',
      svc_email: 'x',
      email: 'other@example.com',
      unsubscribeUrl: 'x',
      subscribeUrl: 'x',
      manageUrl: 'x',
    };
    const contact = await write(sk.key, email, { data: { ...reserved, ok: true } });
    expect(contact.data).toEqual({ ok: true });
  });
});

describe('contacts', () => {
  it('upserts by trimmed, lower-cased email with _meta', async () => {
    const { sk } = await projectFixture(stack.api);
    const email = uniqueEmail();
    const created = await stack.api.post('/contacts', {
      ...sk,
      body: { email: `  ${email.toUpperCase()} `.trim(), data: { a: 1 } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      email,
      subscribed: true,
      data: { a: 1 },
      _meta: { isNew: true, isUpdate: false },
    });
    const again = await stack.api.post('/contacts', { ...sk, body: { email, data: { b: 2 } } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      id: created.body.id,
      data: { a: 1, b: 2 },
      _meta: { isNew: false, isUpdate: true },
    });
    const unsubscribed = await stack.api.post('/contacts', {
      ...sk,
      body: { email: uniqueEmail(), subscribed: false },
    });
    expect(unsubscribed.body.subscribed).toBe(false);
  });

  it('answers PATCH with 409 when another contact has the email, and changes nothing', async () => {
    const { sk } = await projectFixture(stack.api);
    const a = (
      await stack.api.post('/contacts', {
        ...sk,
        body: { email: uniqueEmail('a'), data: { x: 1 } },
      })
    ).body;
    const b = (await stack.api.post('/contacts', { ...sk, body: { email: uniqueEmail('b') } }))
      .body;
    const res = await stack.api.patch(`/contacts/${a.id}`, {
      ...sk,
      body: { email: b.email.toUpperCase(), data: { x: 2 } },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect((await stack.api.get(`/contacts/${a.id}`, sk)).body).toMatchObject({
      email: a.email,
      data: { x: 1 },
    });
    const moved = await stack.api.patch(`/contacts/${a.id}`, {
      ...sk,
      body: { email: uniqueEmail('c') },
    });
    expect(moved.status).toBe(200);
  });

  it('emits contact.unsubscribed / contact.subscribed only when the state flips', async () => {
    const { sk } = await projectFixture(stack.api);
    const contact = (await stack.api.post('/contacts', { ...sk, body: { email: uniqueEmail() } }))
      .body;
    await stack.api.patch(`/contacts/${contact.id}`, { ...sk, body: { subscribed: false } });
    await stack.api.patch(`/contacts/${contact.id}`, { ...sk, body: { subscribed: false } });
    await stack.api.patch(`/contacts/${contact.id}`, { ...sk, body: { data: { a: 1 } } });
    await stack.api.patch(`/contacts/${contact.id}`, { ...sk, body: { subscribed: true } });
    const events = await stack.api.get(`/events/contact/${contact.id}`, sk);
    expect(events.body.data.map((e: { name: string }) => e.name)).toEqual([
      'contact.subscribed',
      'contact.unsubscribed',
    ]);
  });

  it('deletes a contact, then it is gone', async () => {
    const { sk } = await projectFixture(stack.api);
    const contact = (await stack.api.post('/contacts', { ...sk, body: { email: uniqueEmail() } }))
      .body;
    expect((await stack.api.delete(`/contacts/${contact.id}`, sk)).status).toBe(204);
    expect((await stack.api.get(`/contacts/${contact.id}`, sk)).status).toBe(404);
    expect((await stack.api.delete(`/contacts/${contact.id}`, sk)).status).toBe(404);
  });

  it('pages 45 contacts by 20 with total on the first page only, stable under inserts', async () => {
    const { sk } = await projectFixture(stack.api);
    const emails = Array.from(
      { length: 45 },
      (_, i) => `page-${String(i).padStart(2, '0')}-${randomUUID().slice(0, 6)}@example.com`,
    );
    for (const email of emails) await stack.api.post('/contacts', { ...sk, body: { email } });

    const seen: string[] = [];
    const first = await stack.api.get('/contacts?limit=20', sk);
    expect(first.body).toMatchObject({ total: 45, hasMore: true });
    expect(first.body.data).toHaveLength(20);
    seen.push(...first.body.data.map((c: { email: string }) => c.email));
    await stack.api.post('/contacts', { ...sk, body: { email: uniqueEmail('late-1') } });

    const second = await stack.api.get(`/contacts?limit=20&cursor=${first.body.cursor}`, sk);
    expect(second.body).toMatchObject({ total: 0, hasMore: true });
    expect(second.body.data).toHaveLength(20);
    seen.push(...second.body.data.map((c: { email: string }) => c.email));
    await stack.api.post('/contacts', { ...sk, body: { email: uniqueEmail('late-2') } });

    const third = await stack.api.get(`/contacts?limit=20&cursor=${second.body.cursor}`, sk);
    expect(third.body).toMatchObject({ total: 0, hasMore: false, cursor: null });
    expect(third.body.data).toHaveLength(5);
    seen.push(...third.body.data.map((c: { email: string }) => c.email));

    expect(new Set(seen).size).toBe(45);
    expect([...seen].sort()).toEqual([...emails].sort());
  });

  it('refuses limit 0 and 101, and a tampered cursor, with 422', async () => {
    const { sk } = await projectFixture(stack.api);
    for (const query of ['limit=0', 'limit=101', 'cursor=bm9wZQ']) {
      const res = await stack.api.get(`/contacts?${query}`, sk);
      expect(res.status, query).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await stack.api.get('/contacts?limit=1', sk)).status).toBe(200);
    expect((await stack.api.get('/contacts?limit=100', sk)).status).toBe(200);
  });

  it('searches emails by substring, any case, with wildcards taken literally', async () => {
    const { sk } = await projectFixture(stack.api);
    for (const email of ['alice@acme.io', 'bob@acme.io', 'carol@other.io', 'under_score@x.io']) {
      await stack.api.post('/contacts', { ...sk, body: { email } });
    }
    const acme = await stack.api.get('/contacts?search=ACME', sk);
    expect(acme.body.data.map((c: { email: string }) => c.email).sort()).toEqual([
      'alice@acme.io',
      'bob@acme.io',
    ]);
    expect(acme.body.total).toBe(2);
    expect((await stack.api.get('/contacts?search=_', sk)).body.total).toBe(1);
    expect((await stack.api.get('/contacts?search=%25', sk)).body.total).toBe(0);
  });

  it('looks up 500 emails, and refuses 501', async () => {
    const { sk } = await projectFixture(stack.api);
    const known = uniqueEmail('known');
    const contact = (await stack.api.post('/contacts', { ...sk, body: { email: known } })).body;
    const emails = [
      known.toUpperCase(),
      ...Array.from({ length: 499 }, (_, i) => `nobody-${i}@example.com`),
    ];
    const ok = await stack.api.post('/contacts/lookup', { ...sk, body: { emails } });
    expect(ok.status).toBe(200);
    expect(ok.body.found).toEqual([{ id: contact.id, email: known }]);
    expect(ok.body.notFound).toHaveLength(499);
    const tooMany = await stack.api.post('/contacts/lookup', {
      ...sk,
      body: { emails: [...emails, 'one-more@example.com'] },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.errors[0]).toMatchObject({ field: 'emails', code: 'too_big' });
  });

  it('lists fields with types and coverage, values, usage, and deletes a field everywhere', async () => {
    const { sk } = await projectFixture(stack.api);
    await stack.api.post('/contacts', {
      ...sk,
      body: {
        email: uniqueEmail(),
        data: { plan: 'pro', seats: 3, since: '2024-01-02', mixed: 1 },
      },
    });
    await stack.api.post('/contacts', {
      ...sk,
      body: { email: uniqueEmail(), data: { plan: 'free', seats: 1, mixed: 'one' } },
    });
    await stack.api.post('/contacts', {
      ...sk,
      body: { email: uniqueEmail(), data: { plan: 'pro', prefs: { a: 1 } } },
    });
    await stack.api.post('/contacts', { ...sk, body: { email: uniqueEmail() } });

    const fields = (await stack.api.get('/contacts/fields', sk)).body.fields;
    const byName = Object.fromEntries(fields.map((f: { name: string }) => [f.name, f]));
    expect(byName.email).toEqual({
      name: 'email',
      kind: 'standard',
      type: 'string',
      coverage: 100,
    });
    expect(byName.plan).toEqual({ name: 'plan', kind: 'custom', type: 'string', coverage: 75 });
    expect(byName.seats).toMatchObject({ type: 'number', coverage: 50 });
    expect(byName.since).toMatchObject({ type: 'date', coverage: 25 });
    expect(byName.mixed).toMatchObject({ type: 'mixed', coverage: 50 });
    expect(byName.prefs).toMatchObject({ type: 'object', coverage: 25 });

    const values = await stack.api.get('/contacts/fields/plan/values', sk);
    expect(values.body).toEqual({
      field: 'plan',
      values: [
        { value: 'pro', count: 2 },
        { value: 'free', count: 1 },
      ],
    });
    expect((await stack.api.get('/contacts/fields/plan/usage', sk)).body).toEqual({
      field: 'plan',
      segments: [],
      campaigns: [],
      workflows: [],
    });

    const removed = await stack.api.delete('/contacts/fields/plan', sk);
    expect(removed.body).toEqual({ field: 'plan', affected: 3 });
    const after = (await stack.api.get('/contacts/fields', sk)).body.fields.map(
      (f: { name: string }) => f.name,
    );
    expect(after).not.toContain('plan');
    expect((await stack.api.delete('/contacts/fields/email', sk)).status).toBe(422);
  });

  it("gives 404 for another project's contact ids", async () => {
    const a = await projectFixture(stack.api);
    const b = await projectFixture(stack.api);
    const contact = (
      await stack.api.post('/contacts', { ...a.sk, body: { email: uniqueEmail(), data: { x: 1 } } })
    ).body;
    expect((await stack.api.get(`/contacts/${contact.id}`, b.sk)).status).toBe(404);
    expect(
      (await stack.api.patch(`/contacts/${contact.id}`, { ...b.sk, body: { data: { x: 2 } } }))
        .status,
    ).toBe(404);
    expect((await stack.api.delete(`/contacts/${contact.id}`, b.sk)).status).toBe(404);
    expect((await stack.api.get(`/events/contact/${contact.id}`, b.sk)).status).toBe(404);
    expect((await stack.api.get('/contacts', b.sk)).body.total).toBe(0);
    expect((await stack.api.get(`/contacts/${contact.id}`, a.sk)).body.data).toEqual({ x: 1 });
  });

  it('accepts a member session with X-Project-Id, and refuses it for a project they are not in', async () => {
    const a = await projectFixture(stack.api);
    const b = await projectFixture(stack.api);
    const mine = await stack.api.get('/contacts', {
      cookie: a.owner.cookie,
      headers: { 'X-Project-Id': a.project.id },
    });
    expect(mine.status).toBe(200);
    const theirs = await stack.api.get('/contacts', {
      cookie: a.owner.cookie,
      headers: { 'X-Project-Id': b.project.id },
    });
    expect(theirs.status).toBe(404);
    expect((await stack.api.get('/contacts', { cookie: a.owner.cookie })).status).toBe(400);
  });
});
