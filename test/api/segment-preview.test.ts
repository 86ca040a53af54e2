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

const PRO_RECENT = {
  operator: 'AND',
  conditions: [
    { field: 'data.plan', operator: 'equals', value: 'pro' },
    { field: 'createdAt', operator: 'within', value: 7, unit: 'days' },
  ],
};

describe('POST /segments/preview', () => {
  it('counts what an unsaved filter matches, as the saved segment then lists, and saves nothing', async () => {
    const { sk } = await projectFixture(stack.api);
    const plans = ['pro', 'pro', 'pro', 'free', 'team'];
    for (const plan of plans) {
      const res = await stack.api.post('/contacts', {
        ...sk,
        body: { email: uniqueEmail(plan), data: { plan } },
      });
      expect(res.status, res.text).toBe(201);
    }

    const preview = await stack.api.post('/segments/preview', {
      ...sk,
      body: { filters: PRO_RECENT, sampleSize: 2 },
    });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.count).toBe(3);
    expect(preview.body.sample).toHaveLength(2);
    for (const contact of preview.body.sample) expect(contact.data.plan).toBe('pro');

    // Nothing was saved by the preview.
    const before = await stack.api.get('/segments', sk);
    expect(before.body).toEqual([]);

    // `condition` is the filter's other name; the saved segment lists what the preview counted.
    const again = await stack.api.post('/segments/preview', {
      ...sk,
      body: { condition: PRO_RECENT },
    });
    expect(again.body.count).toBe(3);
    expect(again.body.sample).toHaveLength(3);
    const saved = await stack.api.post('/segments', {
      ...sk,
      body: { name: 'Recent pro', filters: PRO_RECENT },
    });
    const members = await stack.api.get(`/segments/${saved.body.id}/contacts`, sk);
    expect(members.body.total).toBe(preview.body.count);

    // A filter naming the saved segment is previewed with it inlined.
    const inSegment = await stack.api.post('/segments/preview', {
      ...sk,
      body: {
        filters: {
          operator: 'OR',
          conditions: [
            { field: `segment.${saved.body.id}`, operator: 'memberOf' },
            { field: 'data.plan', operator: 'equals', value: 'team' },
          ],
        },
        sampleSize: 0,
      },
    });
    expect(inSegment.status, inSegment.text).toBe(200);
    expect(inSegment.body).toEqual({ count: 4, sample: [] });
  });

  it('refuses a missing or invalid filter, a foreign segment and a sample over 20 with 422 at the path', async () => {
    const { sk } = await projectFixture(stack.api);
    const other = await projectFixture(stack.api);
    const foreign = await stack.api.post('/segments', {
      key: other.sk.key,
      body: { name: 'Theirs', filters: PRO_RECENT },
    });
    expect(foreign.status).toBe(201);

    const missing = await stack.api.post('/segments/preview', { ...sk, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.errors[0].field).toBe('filters');

    const badOperator = await stack.api.post('/segments/preview', {
      ...sk,
      body: {
        filters: {
          operator: 'AND',
          conditions: [{ field: 'data.plan', operator: 'triggered' }],
        },
      },
    });
    expect(badOperator.status).toBe(422);
    expect(badOperator.body.error.errors[0]).toMatchObject({
      field: 'filters.conditions.0.operator',
      code: 'invalid_operator',
    });

    const theirs = await stack.api.post('/segments/preview', {
      ...sk,
      body: {
        condition: {
          operator: 'AND',
          conditions: [{ field: `segment.${foreign.body.id}`, operator: 'memberOf' }],
        },
      },
    });
    expect(theirs.status).toBe(422);
    expect(theirs.body.error.errors[0]).toMatchObject({
      field: 'condition',
      code: 'unknown_segment',
    });

    const edge = await stack.api.post('/segments/preview', {
      ...sk,
      body: { filters: PRO_RECENT, sampleSize: 20 },
    });
    expect(edge.status).toBe(200);
    const over = await stack.api.post('/segments/preview', {
      ...sk,
      body: { filters: PRO_RECENT, sampleSize: 21 },
    });
    expect(over.status).toBe(422);
    expect(over.body.error.errors[0].field).toBe('sampleSize');
  });
});
