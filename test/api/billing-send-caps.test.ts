import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billing,
  billingSender,
  emailCount,
  startBillingStack,
  type BillingStack,
} from '../helpers/billing-stack.js';
import type { TestStack } from '../helpers/stack.js';

// The transactional cap on /v1/send: what passes, what is refused (402), and a race for its last
// places.

let billed: BillingStack;
let stack: TestStack;
beforeAll(async () => {
  billed = await startBillingStack();
  ({ stack } = billed);
});
afterAll(async () => {
  await billed?.stop();
});

const sender = () => billingSender(billed);

describe('billing with Stripe (stripe-mock): the transactional cap', () => {
  it('holds /v1/send to the transactional cap: N passes, N+1 is 402 and queues nothing', async () => {
    const { project, sk, domain } = await sender();
    const put = await stack.api.put(billing(project.id, 'billing-limits'), {
      ...sk,
      body: { transactional: 5, campaigns: null },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ transactional: 5, campaigns: null, workflows: null, inbound: null });
    const send = (to: string) =>
      stack.api.post('/v1/send', {
        ...sk,
        body: { to, subject: 'Capped', body: '<p>b</p>', from: `a@${domain}` },
      });
    for (let i = 0; i < 5; i += 1) {
      const res = await send(`cap${i}-${randomUUID().slice(0, 6)}@example.com`);
      expect(res.status, res.text).toBe(200);
    }
    const sixth = await send(`cap6-${randomUUID().slice(0, 6)}@example.com`);
    expect(sixth.status, sixth.text).toBe(402);
    expect(sixth.body.error.code).toBe('BILLING_LIMIT_EXCEEDED');
    expect(await emailCount(project.id)).toBe(5);
    // Two recipients when one is left: the whole send is refused.
    const consumption = await stack.api.get(billing(project.id, 'billing-consumption'), sk);
    expect(consumption.status, consumption.text).toBe(200);
    expect(consumption.body.categories.transactional).toMatchObject({ used: 5, cap: 5 });
    expect(consumption.body.plan).toBe('FREE');

    // Raised, the count goes on from the email rows.
    await stack.api.put(billing(project.id, 'billing-limits'), {
      ...sk,
      body: { transactional: 6 },
    });
    const both = await stack.api.post('/v1/send', {
      ...sk,
      body: {
        to: ['p1@example.com', 'p2@example.com'],
        subject: 'Two',
        body: '<p>b</p>',
        from: `a@${domain}`,
      },
    });
    expect(both.status).toBe(402);
    expect((await send(`last-${randomUUID().slice(0, 6)}@example.com`)).status).toBe(200);
    expect(await emailCount(project.id)).toBe(6);
  });

  it('lets exactly 10 of 20 concurrent sends through a cap of 10', async () => {
    const { project, sk, domain } = await sender();
    await stack.api.put(billing(project.id, 'billing-limits'), {
      ...sk,
      body: { transactional: 10 },
    });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stack.api.post('/v1/send', {
          ...sk,
          body: {
            to: `race${i}-${randomUUID().slice(0, 6)}@example.com`,
            subject: 'Race',
            body: '<p>b</p>',
            from: `a@${domain}`,
          },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(10);
    expect(await emailCount(project.id)).toBe(10);
    const consumption = await stack.api.get(billing(project.id, 'billing-consumption'), sk);
    expect(consumption.body.categories.transactional).toMatchObject({ used: 10, cap: 10 });
    // The ten that passed crossed 80 % together: one warning.
    const warnings = await stack.api.get('/events?event=billing.limit_warning', sk);
    expect(warnings.body.data).toHaveLength(1);
    expect(warnings.body.data[0].data).toMatchObject({ category: 'transactional', cap: 10 });
    expect(warnings.body.data[0].data.used).toBeGreaterThanOrEqual(8);
  });
});
