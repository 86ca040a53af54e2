import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign, importContacts, waitForCampaign } from '../helpers/campaigns.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

const RATE = 10;

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack({ SEND_RATE_PER_SECOND: String(RATE) }));
});
afterAll(async () => {
  await stop?.();
});

async function sender(label: string) {
  const fixture = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain(label));
  return { ...fixture, domain };
}

const arrivalsOf = (subject: string): Date[] =>
  stack.smtp.messages.filter((m) => m.parsed.subject === subject).map((m) => m.receivedAt);

async function waitForArrivals(subject: string, count: number, timeoutMs = 60_000) {
  await stack.smtp.waitFor(() => arrivalsOf(subject).length >= count, { timeoutMs });
  return arrivalsOf(subject).sort((a, b) => a.getTime() - b.getTime());
}

describe('the per-project send throttle (SEND_RATE_PER_SECOND)', () => {
  it('holds a project to its rate (a burst of one second, then RATE a second) while another project sends at once', async () => {
    const busy = await sender('throttle-busy');
    const other = await sender('throttle-other');
    const tag = `t${Date.now()}`;
    const EMAILS = 60;
    const startedAt = Date.now();
    for (let i = 0; i < EMAILS; i += 20) {
      const res = await stack.api.post('/v1/send', {
        ...busy.sk,
        body: {
          to: Array.from({ length: 20 }, (_, k) => `busy${i + k}-${tag}@example.com`),
          subject: `Busy ${tag}`,
          body: '<p>b</p>',
          from: `a@${busy.domain}`,
        },
      });
      expect(res.status, res.text).toBe(200);
    }
    const lone = await stack.api.post('/v1/send', {
      ...other.sk,
      body: {
        to: `lone-${tag}@example.com`,
        subject: `Lone ${tag}`,
        body: '<p>b</p>',
        from: `a@${other.domain}`,
      },
    });
    expect(lone.status, lone.text).toBe(200);

    const busyArrivals = await waitForArrivals(`Busy ${tag}`, EMAILS);
    const [loneArrival] = await waitForArrivals(`Lone ${tag}`, 1);
    // GCRA: at most RATE (the burst) at once, then RATE a second, so the last of EMAILS cannot
    // leave before (EMAILS - RATE) / RATE seconds have passed since the first was accepted. This
    // bound is the throttle's own guarantee: a slow machine only makes the send later.
    const lastAfterMs = (busyArrivals.at(-1) as Date).getTime() - startedAt;
    expect(lastAfterMs).toBeGreaterThanOrEqual(((EMAILS - RATE) / RATE) * 1000 - 100);
    // The other project's email, queued after all 60, went on its own budget, not behind them.
    expect(loneArrival!.getTime()).toBeLessThan(busyArrivals.at(-1)!.getTime());
    expect(new Set(stack.smtp.messages.flatMap((m) => m.to)).size).toBe(
      stack.smtp.messages.flatMap((m) => m.to).length,
    );
  }, 120_000);

  it("sends a project's transactional mail ahead of its throttled campaign", async () => {
    const { sk, domain } = await sender('throttle-campaign');
    const tag = `c${Date.now()}`;
    const RECIPIENTS = 50;
    await importContacts(
      stack.api,
      sk,
      Array.from({ length: RECIPIENTS }, (_, i) => ({ email: `m${i}-${tag}@example.com` })),
    );
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Throttled',
      subject: `News ${tag}`,
      body: '<p>Hello</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });
    const sent = await stack.api.post(`/campaigns/${campaign.id}/send`, sk);
    expect(sent.status, sent.text).toBe(200);
    await waitForArrivals(`News ${tag}`, 1);

    const receipt = await stack.api.post('/v1/send', {
      ...sk,
      body: {
        to: `buyer-${tag}@example.com`,
        subject: `Receipt ${tag}`,
        body: '<p>Thanks</p>',
        from: `shop@${domain}`,
      },
    });
    expect(receipt.status, receipt.text).toBe(200);
    const [receiptAt] = await waitForArrivals(`Receipt ${tag}`, 1);
    const campaignBefore = arrivalsOf(`News ${tag}`).filter(
      (at) => at.getTime() <= receiptAt!.getTime(),
    ).length;
    // Queued behind the campaign's 50, first in line of the project's next allowance instead.
    expect(campaignBefore).toBeLessThan(RECIPIENTS);

    const done = await waitForCampaign(stack.api, sk, campaign.id, { timeoutMs: 60_000 });
    expect(done.status).toBe('SENT');
    expect(arrivalsOf(`News ${tag}`)).toHaveLength(RECIPIENTS);
  }, 120_000);
});
