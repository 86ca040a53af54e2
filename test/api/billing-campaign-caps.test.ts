import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billing,
  billingSender,
  startBillingStack,
  type BillingStack,
} from '../helpers/billing-stack.js';
import { createCampaign, importContacts, waitForCampaign } from '../helpers/campaigns.js';
import type { TestStack } from '../helpers/stack.js';

// The campaigns cap: checked against the audience when a campaign is sent, and again at its
// snapshot.

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

describe('billing with Stripe (stripe-mock): the campaigns cap', () => {
  it('refuses a campaign whose audience passes the cap (402), and re-checks at the snapshot', async () => {
    const { project, sk, domain } = await sender();
    const tag = `cap-${Date.now()}`;
    await importContacts(
      stack.api,
      sk,
      Array.from({ length: 4 }, (_, i) => ({ email: `m${i}-${tag}@example.com` })),
    );
    await stack.api.put(billing(project.id, 'billing-limits'), { ...sk, body: { campaigns: 3 } });
    const content = {
      subject: `Capped ${tag}`,
      body: '<p>Hi</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    };
    const tooBig = await createCampaign(stack.api, sk, { name: 'Too big', ...content });
    const refused = await stack.api.post(`/campaigns/${tooBig.id}/send`, sk);
    expect(refused.status, refused.text).toBe(402);
    expect(refused.body.error.code).toBe('BILLING_LIMIT_EXCEEDED');
    expect((await stack.api.get(`/campaigns/${tooBig.id}`, sk)).body.data.status).toBe('DRAFT');

    // Four fit a cap of 4 when scheduled; a fifth contact arrives before the time: the snapshot
    // refuses the send as a whole, FAILED with the reason, nobody mailed.
    await stack.api.put(billing(project.id, 'billing-limits'), { ...sk, body: { campaigns: 4 } });
    const scheduled = await stack.api.post(`/campaigns/${tooBig.id}/send`, {
      ...sk,
      body: { scheduledFor: new Date(Date.now() + 3000).toISOString() },
    });
    expect(scheduled.status, scheduled.text).toBe(200);
    await importContacts(stack.api, sk, [{ email: `late-${tag}@example.com` }]);
    const failed = await waitForCampaign(stack.api, sk, tooBig.id, { timeoutMs: 30_000 });
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatch(/campaigns cap of 4/);
    expect(stack.smtp.messages.filter((m) => m.parsed.subject === `Capped ${tag}`)).toHaveLength(0);
    const consumption = await stack.api.get(billing(project.id, 'billing-consumption'), sk);
    expect(consumption.body.categories.campaigns).toEqual({ used: 0, cap: 4, warning: null });
  });
});
