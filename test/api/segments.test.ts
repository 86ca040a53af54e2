import { randomUUID } from 'node:crypto';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
import { uniqueEmail } from '../helpers/factories.js';
import { keepHistory, keepHistoryOfCompletedRun } from '../helpers/histories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';
import { eventually } from '../helpers/eventually.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

type Sk = { key: string };

/** Creates contacts (email label -> data) and answers their emails and ids by label. */
async function contacts(
  sk: Sk,
  specs: Record<string, { data?: Record<string, unknown>; subscribed?: boolean }>,
): Promise<Record<string, { email: string; id: string }>> {
  const out: Record<string, { email: string; id: string }> = {};
  await Promise.all(
    Object.entries(specs).map(async ([label, body]) => {
      // Stored as given but lower-cased, which is how members are listed.
      const email = uniqueEmail(label).toLowerCase();
      const res = await stack.api.post('/contacts', { ...sk, body: { email, ...body } });
      expect(res.status, res.text).toBe(201);
      out[label] = { email, id: res.body.id };
    }),
  );
  return out;
}

async function createSegment(sk: Sk, body: Record<string, unknown>) {
  const res = await stack.api.post('/segments', {
    ...sk,
    body: { name: `Segment ${randomUUID().slice(0, 8)}`, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The labels of the contacts a filter matches, read live through GET /segments/:id/contacts. */
async function labelsMatching(
  sk: Sk,
  people: Record<string, { email: string }>,
  filters: Record<string, unknown>,
): Promise<string[]> {
  const segment = await createSegment(sk, { filters });
  const res = await stack.api.get(`/segments/${segment.id}/contacts?pageSize=100`, sk);
  expect(res.status, res.text).toBe(200);
  expect(res.body.total).toBe(segment.memberCount);
  const emails = new Set(res.body.data.map((c: { email: string }) => c.email));
  return Object.entries(people)
    .filter(([, p]) => emails.has(p.email))
    .map(([label]) => label)
    .sort();
}

const one = (condition: Record<string, unknown>) => ({ operator: 'AND', conditions: [condition] });

describe('segment filters over HTTP', () => {
  it('compares data values across types: numbers and numeric text, booleans, missing keys, nested', async () => {
    const { sk } = await projectFixture(stack.api);
    const people = await contacts(sk, {
      a: { data: { plan: 'pro', age: 30, score: '30', flag: true, note: 'Hello World' } },
      b: { data: { plan: 'Pro', age: '30', flag: 'true', note: 'pro tips' } },
      c: { data: { plan: 'basic', age: 29, flag: false, address: { city: 'Paris' } } },
      d: { data: {} },
      e: { data: { age: 'thirty', address: { city: null } } },
    });
    const cases: [Record<string, unknown>, string[]][] = [
      [{ field: 'data.plan', operator: 'equals', value: 'pro' }, ['a']],
      [{ field: 'data.plan', operator: 'notEquals', value: 'pro' }, ['b', 'c', 'd', 'e']],
      [{ field: 'data.age', operator: 'equals', value: 30 }, ['a', 'b']],
      [{ field: 'data.age', operator: 'equals', value: '30' }, ['a', 'b']],
      [{ field: 'data.score', operator: 'equals', value: 30 }, ['a']],
      [{ field: 'data.age', operator: 'greaterThan', value: 29 }, ['a', 'b']],
      [{ field: 'data.age', operator: 'greaterThanOrEqual', value: 29 }, ['a', 'b', 'c']],
      [{ field: 'data.age', operator: 'lessThan', value: 30 }, ['c']],
      [{ field: 'data.age', operator: 'lessThanOrEqual', value: '30' }, ['a', 'b', 'c']],
      [{ field: 'data.flag', operator: 'equals', value: true }, ['a', 'b']],
      [{ field: 'data.flag', operator: 'equals', value: false }, ['c']],
      [{ field: 'data.note', operator: 'contains', value: 'WORLD' }, ['a']],
      [{ field: 'data.note', operator: 'notContains', value: 'world' }, ['b', 'c', 'd', 'e']],
      [{ field: 'data.note', operator: 'startsWith', value: 'PRO' }, ['b']],
      [{ field: 'data.note', operator: 'endsWith', value: 'tips' }, ['b']],
      [{ field: 'data.plan', operator: 'in', value: ['pro'] }, ['a']],
      [{ field: 'data.plan', operator: 'in', value: ['pro', 'basic', 'Pro'] }, ['a', 'b', 'c']],
      [{ field: 'data.plan', operator: 'notIn', value: ['pro', 'basic'] }, ['b', 'd', 'e']],
      [{ field: 'data.plan', operator: 'exists' }, ['a', 'b', 'c']],
      [{ field: 'data.plan', operator: 'notExists' }, ['d', 'e']],
      [{ field: 'data.address.city', operator: 'equals', value: 'Paris' }, ['c']],
      [{ field: 'data.address.city', operator: 'exists' }, ['c']],
      [{ field: 'email', operator: 'contains', value: people.c?.email.slice(0, 10) }, ['c']],
      [{ field: 'subscribed', operator: 'equals', value: true }, ['a', 'b', 'c', 'd', 'e']],
    ];
    for (const [condition, expected] of cases) {
      expect(await labelsMatching(sk, people, one(condition)), JSON.stringify(condition)).toEqual(
        expected,
      );
    }
  });

  it('reads dates with within and olderThan in minutes, hours and days', async () => {
    const { sk } = await projectFixture(stack.api);
    const at = (ms: number) => new Date(Date.now() - ms).toISOString();
    const people = await contacts(sk, {
      minutes: { data: { seen: at(3 * 60_000) } },
      hours: { data: { seen: at(3 * 3_600_000) } },
      days: { data: { seen: at(3 * 86_400_000) } },
      notADate: { data: { seen: '2024-02-30' } },
    });
    const cases: [string, number, string, string[]][] = [
      ['within', 5, 'minutes', ['minutes']],
      ['olderThan', 5, 'minutes', ['days', 'hours']],
      ['within', 5, 'hours', ['hours', 'minutes']],
      ['olderThan', 5, 'hours', ['days']],
      ['within', 5, 'days', ['days', 'hours', 'minutes']],
      ['olderThan', 2, 'days', ['days']],
    ];
    for (const [operator, value, unit, expected] of cases) {
      const condition = { field: 'data.seen', operator, value, unit };
      expect(
        await labelsMatching(sk, people, one(condition)),
        `${operator} ${value} ${unit}`,
      ).toEqual(expected);
    }
    expect(
      await labelsMatching(
        sk,
        people,
        one({ field: 'createdAt', operator: 'within', value: 1, unit: 'hours' }),
      ),
    ).toEqual(['days', 'hours', 'minutes', 'notADate']);
    expect(
      await labelsMatching(
        sk,
        people,
        one({ field: 'data.seen', operator: 'greaterThan', value: '2020-01-01' }),
      ),
    ).toEqual(['days', 'hours', 'minutes']);
  });

  it('reads events: triggered, notTriggered, a window edge from both sides, and counts', async () => {
    const { sk, project } = await projectFixture(stack.api);
    const people = await contacts(sk, { twice: {}, once: {}, inside: {}, outside: {} });
    for (const label of ['twice', 'twice', 'once']) {
      const res = await stack.api.post('/v1/track', {
        ...sk,
        body: { email: people[label]?.email, event: 'purchase' },
      });
      expect(res.status, res.text).toBe(200);
    }
    // An hour's window: one login a minute inside it, one a minute outside.
    await withDatabase((db) =>
      db.query(
        `INSERT INTO events (id, project_id, contact_id, name, data, created_at)
         VALUES (gen_random_uuid(), $1, $2, 'login', '{}', now() - interval '59 minutes'),
                (gen_random_uuid(), $1, $3, 'login', '{}', now() - interval '61 minutes')`,
        [project.id, people.inside?.id, people.outside?.id],
      ),
    );
    const cases: [Record<string, unknown>, string[]][] = [
      [{ field: 'event.login', operator: 'triggered' }, ['inside', 'outside']],
      [{ field: 'event.login', operator: 'notTriggered' }, ['once', 'twice']],
      [{ field: 'event.login', operator: 'triggeredWithin', value: 1, unit: 'hours' }, ['inside']],
      [
        { field: 'event.login', operator: 'notTriggeredWithin', value: 1, unit: 'hours' },
        ['once', 'outside', 'twice'],
      ],
      [
        { field: 'event.login', operator: 'triggeredOlderThan', value: 1, unit: 'hours' },
        ['outside'],
      ],
      [{ field: 'event.purchase', operator: 'triggeredCount', value: 1 }, ['once', 'twice']],
      [{ field: 'event.purchase', operator: 'triggeredCount', value: 2 }, ['twice']],
      [{ field: 'event.purchase', operator: 'triggeredCount', value: 3 }, []],
    ];
    for (const [condition, expected] of cases) {
      expect(await labelsMatching(sk, people, one(condition)), JSON.stringify(condition)).toEqual(
        expected,
      );
    }
  });

  it('joins with OR and nests groups 5 deep; 6 deep or a bad operator is a 422 naming the path', async () => {
    const { sk } = await projectFixture(stack.api);
    const people = await contacts(sk, { x: { data: { n: 1 } }, y: { data: { n: 2 } }, z: {} });
    const either = {
      operator: 'OR',
      conditions: [
        { field: 'data.n', operator: 'equals', value: 1 },
        { operator: 'AND', conditions: [{ field: 'data.n', operator: 'greaterThan', value: 1 }] },
      ],
    };
    expect(await labelsMatching(sk, people, either)).toEqual(['x', 'y']);
    const nested = (depth: number): Record<string, unknown> =>
      depth === 1 ? either : { operator: 'AND', conditions: [nested(depth - 1)] };
    // `either` is two levels: four wrappers make five.
    expect(await labelsMatching(sk, people, nested(4))).toEqual(['x', 'y']);
    const tooDeep = await stack.api.post('/segments', {
      ...sk,
      body: { name: 'Too deep', filters: nested(5) },
    });
    expect(tooDeep.status).toBe(422);
    expect(tooDeep.body.error.errors).toEqual([
      {
        field: 'filters.conditions.0.conditions.0.conditions.0.conditions.0.conditions.1',
        code: 'too_deep',
        message: 'Groups nest 5 deep at most',
      },
    ]);
    const badOperator = await stack.api.post('/segments', {
      ...sk,
      body: {
        name: 'Bad',
        condition: {
          operator: 'AND',
          conditions: [
            { field: 'data.n', operator: 'exists' },
            { field: 'email', operator: 'contains', value: 'a' },
            { field: 'data.n', operator: 'isAbout', value: 1 },
          ],
        },
      },
    });
    expect(badOperator.status).toBe(422);
    expect(badOperator.body.error.errors[0]).toMatchObject({
      field: 'condition.conditions.2.operator',
      code: 'invalid_operator',
    });
    const list = await stack.api.get('/segments', sk);
    expect(list.body.map((s: { name: string }) => s.name)).not.toContain('Too deep');
  });

  it("accepts Plunk's {logic, groups} filters", async () => {
    const { sk } = await projectFixture(stack.api);
    const people = await contacts(sk, {
      pro: { data: { plan: 'pro' } },
      free: { data: { plan: 'free' } },
    });
    const segment = await createSegment(sk, {
      filters: {
        logic: 'OR',
        groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }],
      },
    });
    expect(segment.filters).toEqual({
      operator: 'OR',
      conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }],
    });
    expect(segment.memberCount).toBe(1);
    const members = await stack.api.get(`/segments/${segment.id}/contacts`, sk);
    expect(members.body.data.map((c: { email: string }) => c.email)).toEqual([people.pro?.email]);
  });
});

describe('segment membership', () => {
  it('lets a filter test membership of a static segment, and refuses a memberOf cycle', async () => {
    const { sk } = await projectFixture(stack.api);
    const people = await contacts(sk, { in: {}, out: {} });
    const vip = await createSegment(sk, { type: 'STATIC' });
    const added = await stack.api.post(`/segments/${vip.id}/members`, {
      ...sk,
      body: { emails: [people.in?.email] },
    });
    expect(added.body).toEqual({ added: 1, created: 0, notFound: [] });
    expect(
      await labelsMatching(sk, people, one({ field: `segment.${vip.id}`, operator: 'memberOf' })),
    ).toEqual(['in']);
    expect(
      await labelsMatching(
        sk,
        people,
        one({ field: `segment.${vip.id}`, operator: 'notMemberOf' }),
      ),
    ).toEqual(['out']);

    const a = await createSegment(sk, { filters: one({ field: 'data.x', operator: 'notExists' }) });
    const b = await createSegment(sk, {
      filters: one({ field: `segment.${a.id}`, operator: 'memberOf' }),
    });
    expect(b.memberCount).toBe(2);
    const cycle = await stack.api.patch(`/segments/${a.id}`, {
      ...sk,
      body: { condition: one({ field: `segment.${b.id}`, operator: 'memberOf' }) },
    });
    expect(cycle.status, cycle.text).toBe(422);
    expect(cycle.body.error.errors[0]).toMatchObject({ field: 'condition', code: 'segment_cycle' });
    const self = await stack.api.patch(`/segments/${a.id}`, {
      ...sk,
      body: { filters: one({ field: `segment.${a.id}`, operator: 'notMemberOf' }) },
    });
    expect(self.status).toBe(422);
    const unknown = await stack.api.post('/segments', {
      ...sk,
      body: {
        name: 'Unknown ref',
        filters: one({ field: `segment.${randomUUID()}`, operator: 'memberOf' }),
      },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.errors[0].code).toBe('unknown_segment');

    // A used segment stays (409) until what uses it lets go.
    expect((await stack.api.delete(`/segments/${a.id}`, sk)).status).toBe(409);
    expect((await stack.api.delete(`/segments/${b.id}`, sk)).status).toBe(204);
    expect((await stack.api.delete(`/segments/${a.id}`, sk)).status).toBe(204);
    expect((await stack.api.get(`/segments/${a.id}`, sk)).status).toBe(404);
  });

  it('adds static members by email (creating missing ones on request) and removes them', async () => {
    const { sk } = await projectFixture(stack.api);
    const people = await contacts(sk, { known: {} });
    const list = await createSegment(sk, { type: 'STATIC', description: 'Hand-picked' });
    expect(list).toMatchObject({ type: 'STATIC', filters: null, memberCount: 0 });
    const stranger = uniqueEmail('stranger');
    const first = await stack.api.post(`/segments/${list.id}/members`, {
      ...sk,
      body: { emails: [people.known?.email.toUpperCase(), stranger] },
    });
    expect(first.body).toEqual({ added: 1, created: 0, notFound: [stranger] });
    const created = await stack.api.post(`/segments/${list.id}/members`, {
      ...sk,
      body: { emails: [people.known?.email, stranger], createMissing: true, subscribed: false },
    });
    expect(created.body).toEqual({ added: 1, created: 1, notFound: [] });
    const found = await stack.api.post('/contacts/lookup', { ...sk, body: { emails: [stranger] } });
    const strangerContact = await stack.api.get(`/contacts/${found.body.found[0].id}`, sk);
    expect(strangerContact.body.subscribed).toBe(false);
    expect((await stack.api.get(`/segments/${list.id}`, sk)).body.memberCount).toBe(2);

    const removed = await stack.api.delete(`/segments/${list.id}/members`, {
      ...sk,
      body: { emails: [stranger, uniqueEmail('never')] },
    });
    expect(removed.body).toEqual({ removed: 1 });
    const members = await stack.api.get(`/segments/${list.id}/contacts?page=1&pageSize=10`, sk);
    expect(members.body).toMatchObject({ total: 1, page: 1, pageSize: 10, totalPages: 1 });
    expect(members.body.data[0].email).toBe(people.known?.email);

    // Limits at their edge: 500 emails pass, 501 do not.
    const many = (n: number) => Array.from({ length: n }, (_, i) => `bulk-${i}@example.com`);
    const at500 = await stack.api.post(`/segments/${list.id}/members`, {
      ...sk,
      body: { emails: many(500) },
    });
    expect(at500.status).toBe(200);
    expect(at500.body.notFound).toHaveLength(500);
    const at501 = await stack.api.post(`/segments/${list.id}/members`, {
      ...sk,
      body: { emails: many(501) },
    });
    expect(at501.status).toBe(422);
    expect(at501.body.error.errors[0]).toMatchObject({ field: 'emails', code: 'too_big' });
    // A dynamic segment's members are its filter's.
    const dynamic = await createSegment(sk, {
      filters: one({ field: 'email', operator: 'exists' }),
    });
    expect(
      (
        await stack.api.post(`/segments/${dynamic.id}/members`, {
          ...sk,
          body: { emails: [stranger] },
        })
      ).status,
    ).toBe(409);
  });

  it('checks what a segment is: a filter for DYNAMIC, none for STATIC, a free slug', async () => {
    const { sk } = await projectFixture(stack.api);
    const noFilter = await stack.api.post('/segments', { ...sk, body: { name: 'Empty' } });
    expect(noFilter.status).toBe(422);
    expect(noFilter.body.error.errors[0]).toMatchObject({ field: 'filters', code: 'required' });
    const staticWithFilter = await stack.api.post('/segments', {
      ...sk,
      body: {
        name: 'Static',
        type: 'STATIC',
        filters: one({ field: 'email', operator: 'exists' }),
      },
    });
    expect(staticWithFilter.status).toBe(422);
    const first = await createSegment(sk, {
      name: 'VIP buyers!',
      filters: one({ field: 'email', operator: 'exists' }),
    });
    expect(first.slug).toBe('vip-buyers-');
    const twin = await stack.api.post('/segments', {
      ...sk,
      body: { name: 'VIP Buyers?', filters: one({ field: 'email', operator: 'exists' }) },
    });
    expect(twin.status).toBe(409);
    const staticOne = await createSegment(sk, { type: 'STATIC' });
    const patched = await stack.api.patch(`/segments/${staticOne.id}`, {
      ...sk,
      body: { condition: one({ field: 'email', operator: 'exists' }) },
    });
    expect(patched.status).toBe(422);
    // `in` takes 500 values, not 501.
    const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
    const in500 = await stack.api.post('/segments', {
      ...sk,
      body: {
        name: 'In 500',
        filters: one({ field: 'data.x', operator: 'in', value: values(500) }),
      },
    });
    expect(in500.status).toBe(201);
    const in501 = await stack.api.post('/segments', {
      ...sk,
      body: {
        name: 'In 501',
        filters: one({ field: 'data.x', operator: 'in', value: values(501) }),
      },
    });
    expect(in501.status).toBe(422);
    expect(in501.body.error.errors[0].field).toBe('filters.conditions.0.value');
  });

  it("gives 404 for another project's segments, and checks the page size at its edge", async () => {
    const mine = await projectFixture(stack.api);
    const theirs = await projectFixture(stack.api);
    const segment = await createSegment(theirs.sk, { type: 'STATIC' });
    const id = segment.id;
    for (const res of [
      await stack.api.get(`/segments/${id}`, mine.sk),
      await stack.api.patch(`/segments/${id}`, { ...mine.sk, body: { name: 'Mine now' } }),
      await stack.api.delete(`/segments/${id}`, mine.sk),
      await stack.api.get(`/segments/${id}/contacts`, mine.sk),
      await stack.api.post(`/segments/${id}/members`, { ...mine.sk, body: { emails: ['a@b.co'] } }),
      await stack.api.delete(`/segments/${id}/members`, {
        ...mine.sk,
        body: { emails: ['a@b.co'] },
      }),
      await stack.api.post(`/segments/${id}/compute`, mine.sk),
      await stack.api.post(`/segments/${id}/refresh`, mine.sk),
    ]) {
      expect(res.status, res.text).toBe(404);
    }
    expect((await stack.api.get('/segments', mine.sk)).body).toEqual([]);
    expect((await stack.api.get(`/segments/${id}/contacts?pageSize=100`, theirs.sk)).status).toBe(
      200,
    );
    const tooBig = await stack.api.get(`/segments/${id}/contacts?pageSize=101`, theirs.sk);
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.error.errors[0].field).toBe('query.pageSize');
    expect((await stack.api.get('/segments', { key: theirs.project.publicKey })).status).toBe(401);
  });
});

describe('tracked membership', () => {
  it('computes entries and exits exactly, once, and refresh only counts', async () => {
    const { sk } = await projectFixture(stack.api);
    const people = await contacts(sk, {
      gold1: { data: { tier: 'gold' } },
      silver: { data: { tier: 'silver' } },
      gold2: { data: { tier: 'gold' } },
    });
    const segment = await createSegment(sk, {
      name: 'Gold tier',
      filters: one({ field: 'data.tier', operator: 'equals', value: 'gold' }),
      trackMembership: true,
    });
    expect(segment).toMatchObject({ slug: 'gold-tier', trackMembership: true, memberCount: 2 });

    const first = await stack.api.post(`/segments/${segment.id}/compute`, sk);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ added: 2, removed: 0, total: 2 });
    await keepHistory('segment-compute', `segment-compute-${segment.id}`);

    const eventsOf = async (label: string) =>
      (await stack.api.get(`/events/contact/${people[label]?.id}`, sk)).body.data
        .map((e: { name: string }) => e.name)
        .filter((name: string) => name.startsWith('segment.'))
        .sort();
    expect(await eventsOf('gold1')).toEqual(['segment.gold-tier.entry']);
    expect(await eventsOf('silver')).toEqual([]);

    // Data changes: one leaves, one joins.
    await stack.api.patch(`/contacts/${people.gold1?.id}`, {
      ...sk,
      body: { data: { tier: 'silver' } },
    });
    await stack.api.patch(`/contacts/${people.silver?.id}`, {
      ...sk,
      body: { data: { tier: 'gold' } },
    });
    const second = await stack.api.post(`/segments/${segment.id}/compute`, sk);
    expect(second.body).toEqual({ added: 1, removed: 1, total: 2 });
    expect(await eventsOf('gold1')).toEqual(['segment.gold-tier.entry', 'segment.gold-tier.exit']);
    expect(await eventsOf('silver')).toEqual(['segment.gold-tier.entry']);
    expect(await eventsOf('gold2')).toEqual(['segment.gold-tier.entry']);

    // Nothing changed: nothing fires.
    const third = await stack.api.post(`/segments/${segment.id}/compute`, sk);
    expect(third.body).toEqual({ added: 0, removed: 0, total: 2 });
    await stack.api.patch(`/contacts/${people.gold2?.id}`, {
      ...sk,
      body: { data: { tier: 'none' } },
    });
    const refreshed = await stack.api.post(`/segments/${segment.id}/refresh`, sk);
    expect(refreshed.body).toEqual({ memberCount: 1 });
    expect(await eventsOf('gold2')).toEqual(['segment.gold-tier.entry']);
    expect((await stack.api.get(`/segments/${segment.id}`, sk)).body.memberCount).toBe(1);

    const entries = await stack.api.get('/events?event=segment.gold-tier.entry', sk);
    expect(entries.body.total).toBe(3);
    expect(entries.body.data[0].data).toEqual({ segmentId: segment.id, segmentName: 'Gold tier' });

    // The service's own names cannot be tracked.
    const reserved = await stack.api.post('/v1/track', {
      ...sk,
      body: { email: people.gold2?.email, event: 'segment.gold-tier.entry' },
    });
    expect(reserved.status).toBe(422);
    expect(reserved.body.error.errors[0].code).toBe('reserved_event');

    // Only a tracked dynamic segment computes.
    const untracked = await createSegment(sk, {
      filters: one({ field: 'email', operator: 'exists' }),
    });
    expect((await stack.api.post(`/segments/${untracked.id}/compute`, sk)).status).toBe(409);
  });

  it('lists the segments that use a field or an event', async () => {
    const { sk } = await projectFixture(stack.api);
    const segment = await createSegment(sk, {
      filters: {
        operator: 'AND',
        conditions: [
          { field: 'data.tier.level', operator: 'exists' },
          { field: 'event.email.open', operator: 'triggered' },
        ],
      },
    });
    const fieldUsage = await stack.api.get('/contacts/fields/tier/usage', sk);
    expect(fieldUsage.body.segments).toEqual([{ id: segment.id, name: segment.name }]);
    const eventUsage = await stack.api.get('/events/email.opened/usage', sk);
    expect(eventUsage.body.segments).toEqual([{ id: segment.id, name: segment.name }]);
    expect((await stack.api.get('/events/email.open/usage', sk)).body.segments).toHaveLength(1);
    expect((await stack.api.get('/contacts/fields/other/usage', sk)).body.segments).toEqual([]);
  });

  // Last: the schedule recomputes every tracked segment of the shared database.
  it('is recomputed by the durable schedule, without anyone calling compute', async () => {
    const { sk } = await projectFixture(stack.api);
    const people = await contacts(sk, { early: { data: { stage: 'lead' } } });
    const segment = await createSegment(sk, {
      name: 'Leads',
      filters: one({ field: 'data.stage', operator: 'equals', value: 'lead' }),
      trackMembership: true,
    });
    const connection = await Connection.connect({ address: inject('stack').temporalAddress });
    try {
      const schedule = new TemporalClient({ connection }).schedule.getHandle(
        `segment-recompute-${stack.env.TEMPORAL_TASK_QUEUE}`,
      );
      const description = await schedule.describe();
      expect(description.spec.intervals?.[0]?.every).toBe(8760 * 3600 * 1000);
      expect(description.action).toMatchObject({ workflowType: 'recomputeSegments' });
      await schedule.trigger();
      let names: string[] = [];
      await eventually(
        async () => {
          const res = await stack.api.get(`/events/contact/${people.early?.id}`, sk);
          names = res.body.data.map((e: { name: string }) => e.name);
          return names.includes('segment.leads.entry');
        },
        { what: 'a segment.leads.entry event', intervalMs: 250, describe: () => names.join(', ') },
      );
      expect((await stack.api.get(`/segments/${segment.id}`, sk)).body.memberCount).toBe(1);
      await keepHistoryOfCompletedRun(
        'recompute-segments',
        'recomputeSegments',
        stack.env.TEMPORAL_TASK_QUEUE as string,
      );
    } finally {
      await connection.close();
    }
  });
});
