import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billing, billingSender, emailCount } from '../helpers/billing-stack.js';
import { createCampaign, importContacts } from '../helpers/campaigns.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

// Billing off is not usage off: with no STRIPE_SECRET_KEY an operator still caps a project's
// monthly mail and reads its consumption; only the Stripe routes say billing is off.

let stack: TestStack;
let dns: DnsServer;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stack, dns, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

describe('billing off (no Stripe key)', () => {
  it('says so in /config and on the Stripe routes, which change nothing', async () => {
    const config = await stack.api.get('/config');
    expect(config.body.features.billing).toBe(false);
    const { project, sk } = await billingSender({ stack, dns });
    for (const what of ['checkout', 'billing-portal']) {
      const res = await stack.api.post(billing(project.id, what), sk);
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.message).toMatch(/Billing is off/);
    }
    const invoices = await stack.api.get(billing(project.id, 'billing-invoices'), sk);
    expect(invoices.status, invoices.text).toBe(400);
  });

  it('caps /v1/send all the same: N passes, N+1 is 402; consumption counts it', async () => {
    const { project, sk, domain } = await billingSender({ stack, dns });
    const put = await stack.api.put(billing(project.id, 'billing-limits'), {
      ...sk,
      body: { transactional: 2 },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ transactional: 2, campaigns: null, workflows: null, inbound: null });
    const send = () =>
      stack.api.post('/v1/send', {
        ...sk,
        body: {
          to: `off-${randomUUID().slice(0, 8)}@example.com`,
          subject: 'Capped without Stripe',
          body: '<p>b</p>',
          from: `a@${domain}`,
        },
      });
    for (let i = 0; i < 2; i += 1) expect((await send()).status).toBe(200);
    const third = await send();
    expect(third.status, third.text).toBe(402);
    expect(third.body.error.code).toBe('BILLING_LIMIT_EXCEEDED');
    expect(await emailCount(project.id)).toBe(2);

    const consumption = await stack.api.get(billing(project.id, 'billing-consumption'), sk);
    expect(consumption.status, consumption.text).toBe(200);
    expect(consumption.body.categories.transactional).toMatchObject({ used: 2, cap: 2 });
    expect(
      (await stack.api.get(billing(project.id, 'billing-limits'), sk)).body.transactional,
    ).toBe(2);
  });

  it('refuses a campaign whose audience passes the campaigns cap (402), still a DRAFT', async () => {
    const { project, sk, domain } = await billingSender({ stack, dns });
    const tag = `off-${Date.now()}`;
    await importContacts(
      stack.api,
      sk,
      Array.from({ length: 3 }, (_, i) => ({ email: `m${i}-${tag}@example.com` })),
    );
    await stack.api.put(billing(project.id, 'billing-limits'), { ...sk, body: { campaigns: 2 } });
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Too big',
      subject: `Capped ${tag}`,
      body: '<p>Hi</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });
    const refused = await stack.api.post(`/campaigns/${campaign.id}/send`, sk);
    expect(refused.status, refused.text).toBe(402);
    expect((await stack.api.get(`/campaigns/${campaign.id}`, sk)).body.data.status).toBe('DRAFT');
  });
});
