import { Client as TemporalClient, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  campaignStats,
  createCampaign,
  importContacts,
  waitForCampaign,
} from '../helpers/campaigns.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { keepHistory } from '../helpers/histories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';
import { eventually } from '../helpers/eventually.js';

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  // Watches of 20 ms instead of 10 minutes: the run reaches its 2,000 history events (and
  // continues as new) within seconds instead of days.
  ({ dns, stack, stop } = await startSendingStack({ CAMPAIGN_WATCH_SECONDS: '0.02' }));
});
afterAll(async () => {
  await stop?.();
});

describe('a long campaign send', () => {
  it('continues as new while it watches, and still ends SENT with every recipient once', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('camp-can'));
    const tag = `can-${Date.now()}`;
    const RECIPIENTS = 20;
    await importContacts(
      stack.api,
      sk,
      Array.from({ length: RECIPIENTS }, (_, i) => ({ email: `r${i}-${tag}@example.com` })),
    );
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Long',
      subject: `Long ${tag}`,
      body: '<p>Hello</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });
    // The server holds the campaign's messages unanswered, so the send stays SENDING.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    stack.smtp.setResponder(async (message) => {
      if (message.raw.toString().includes(`Long ${tag}`)) await released;
    });

    const connection = await Connection.connect({ address: inject('stack').temporalAddress });
    try {
      const sent = await stack.api.post(`/campaigns/${campaign.id}/send`, sk);
      expect(sent.status, sent.text).toBe(200);
      const handle = new TemporalClient({ connection }).workflow.getHandle(
        `campaign-${campaign.id}`,
      );
      const firstRun = (await handle.describe()).runId;
      await eventually(async () => (await handle.describe()).runId !== firstRun, {
        what: 'the run to continue as new',
        timeoutMs: 120_000,
        intervalMs: 500,
      });
      expect((await stack.api.get(`/campaigns/${campaign.id}`, sk)).body.data.status).toBe(
        'SENDING',
      );

      release();
      const done = await waitForCampaign(stack.api, sk, campaign.id, { timeoutMs: 60_000 });
      expect(done.status).toBe('SENT');
      const received = stack.smtp.messages
        .filter((m) => m.parsed.subject === `Long ${tag}`)
        .flatMap((m) => m.to);
      expect(received).toHaveLength(RECIPIENTS);
      expect(new Set(received).size).toBe(RECIPIENTS);
      expect(await campaignStats(stack.api, sk, campaign.id)).toMatchObject({
        recipients: RECIPIENTS,
        sent: RECIPIENTS,
      });
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'SENT' });
      await keepHistory('campaign-send.continued-as-new', `campaign-${campaign.id}`, firstRun);
    } finally {
      stack.smtp.setResponder(undefined);
      release();
      await connection.close();
    }
  }, 240_000);
});
