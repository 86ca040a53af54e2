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

const PRO = {
  operator: 'AND',
  conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }],
};

describe('POST /campaigns/audience', () => {
  it('counts what an audience matches and what a send would reach, for ALL, SEGMENT and FILTERED', async () => {
    const { sk, project } = await projectFixture(stack.api);
    const people = [
      { plan: 'pro', subscribed: true },
      { plan: 'pro', subscribed: true },
      { plan: 'pro', subscribed: true },
      { plan: 'pro', subscribed: false },
      { plan: 'pro', subscribed: true, suppressed: true },
      { plan: 'free', subscribed: true },
      { plan: 'free', subscribed: false },
    ];
    for (const person of people) {
      const email = uniqueEmail(person.plan);
      const res = await stack.api.post('/contacts', {
        ...sk,
        body: { email, subscribed: person.subscribed, data: { plan: person.plan } },
      });
      expect(res.status, res.text).toBe(201);
      if (person.suppressed) {
        await withDatabase((db) =>
          db.query(
            `INSERT INTO suppressions (project_id, email, reason) VALUES ($1, $2, 'hard_bounce')`,
            [project.id, email],
          ),
        );
      }
    }
    const segment = await stack.api.post('/segments', {
      ...sk,
      body: { name: 'Pro', filters: PRO },
    });
    expect(segment.status).toBe(201);

    const measure = (body: Record<string, unknown>) =>
      stack.api.post('/campaigns/audience', { ...sk, body });
    const all = await measure({ audienceType: 'ALL' });
    expect(all.status, all.text).toBe(200);
    expect(all.body).toEqual({ success: true, data: { matching: 7, reachable: 4, skipped: 3 } });
    const bySegment = await measure({ audienceType: 'SEGMENT', segmentId: segment.body.id });
    expect(bySegment.body.data).toEqual({ matching: 5, reachable: 3, skipped: 2 });
    const filtered = await measure({
      audienceType: 'FILTERED',
      audienceCondition: {
        operator: 'AND',
        conditions: [{ field: 'data.plan', operator: 'equals', value: 'free' }],
      },
    });
    expect(filtered.body.data).toEqual({ matching: 2, reachable: 1, skipped: 1 });

    // Nothing was created.
    const campaigns = await stack.api.get('/campaigns', sk);
    expect(campaigns.body.data.total).toBe(0);
  });

  it('refuses an audience it cannot measure with a 422 at the field, and scopes to the project', async () => {
    const { sk } = await projectFixture(stack.api);
    const other = await projectFixture(stack.api);
    const theirs = await stack.api.post('/segments', {
      key: other.sk.key,
      body: { name: 'Theirs', filters: PRO },
    });
    const measure = (body: Record<string, unknown>) =>
      stack.api.post('/campaigns/audience', { ...sk, body });

    const noSegment = await measure({ audienceType: 'SEGMENT' });
    expect(noSegment.status).toBe(422);
    expect(noSegment.body.error.errors[0]).toMatchObject({ field: 'segmentId', code: 'required' });
    const foreign = await measure({ audienceType: 'SEGMENT', segmentId: theirs.body.id });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.errors[0]).toMatchObject({
      field: 'segmentId',
      code: 'unknown_segment',
    });
    const noFilter = await measure({ audienceType: 'FILTERED' });
    expect(noFilter.status).toBe(422);
    expect(noFilter.body.error.errors[0].field).toBe('audienceFilter');
    const badOperator = await measure({
      audienceType: 'FILTERED',
      audienceFilter: { operator: 'AND', conditions: [{ field: 'email', operator: 'within' }] },
    });
    expect(badOperator.status).toBe(422);
    expect(badOperator.body.error.errors[0]).toMatchObject({
      field: 'audienceFilter.conditions.0.operator',
      code: 'invalid_operator',
    });
    const badType = await measure({ audienceType: 'EVERYONE' });
    expect(badType.status).toBe(422);
    expect(badType.body.error.errors[0].field).toBe('audienceType');
  });
});
