import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withApiWithoutTemporal } from '../helpers/api-without-temporal.js';
import { createCampaign, importContacts, waitForCampaign } from '../helpers/campaigns.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

let stack: TestStack;
let dns: DnsServer;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stack, dns, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

// The campaign's status is committed before its run starts, and put back when the run cannot be
// started, so a send either runs or leaves a DRAFT that can be sent again.
describe('starting a campaign send', () => {
  it('answers 503 and leaves a DRAFT when Temporal cannot be reached; the same campaign sends later', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('start'));
    const tag = `start-${Date.now()}`;
    await importContacts(stack.api, sk, [{ email: `reader-${tag}@example.com` }]);
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Started twice',
      subject: `Started ${tag}`,
      body: '<p>Hello</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });

    await withApiWithoutTemporal(stack, async (cut) => {
      for (const body of [{}, { scheduledFor: new Date(Date.now() + 60_000).toISOString() }]) {
        const res = await cut.post(`/campaigns/${campaign.id}/send`, { ...sk, body });
        expect(res.status, res.text).toBe(503);
        expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
        const now = await stack.api.get(`/campaigns/${campaign.id}`, sk);
        expect(now.body.data).toMatchObject({ status: 'DRAFT', scheduledAt: null });
      }
    });

    const sent = await stack.api.post(`/campaigns/${campaign.id}/send`, { ...sk, body: {} });
    expect(sent.status, sent.text).toBeLessThan(300);
    const done = await waitForCampaign(stack.api, sk, campaign.id);
    expect(done.status).toBe('SENT');
    const mine = stack.smtp.messages.filter((m) => m.parsed.subject === `Started ${tag}`);
    expect(mine.length).toBe(1);
  }, 180_000);
});
