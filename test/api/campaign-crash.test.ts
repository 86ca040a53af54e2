import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  campaignStats,
  createCampaign,
  importContacts,
  waitForCampaign,
} from '../helpers/campaigns.js';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';
import { eventually } from '../helpers/eventually.js';

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  // Two SMTP connections: the send takes longer but leaves the other file running beside it
  // (CI has 2 cores) its share of the machine.
  // A send rate of the project's that the two connections never reach: this file tests crashes,
  // send-throttle.test.ts the throttle.
  ({ dns, stack, stop } = await startSendingStack({
    SMTP_POOL_SIZE: '2',
    SEND_RATE_PER_SECOND: '100000',
  }));
});
afterAll(async () => {
  await stop?.();
});

// Two kills, each with emails in flight, and enough after them to show the send go on. The chaos
// suite (test/chaos/) kills the worker during a 10,000-recipient campaign too.
const RECIPIENTS = 4_000;

describe('a campaign whose worker is killed twice while it sends', () => {
  it('reaches every recipient exactly once: SMTP count == unique recipients == stats.sent', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('camp-crash'));
    const tag = `crash-${Date.now()}`;
    await importContacts(
      stack.api,
      sk,
      Array.from({ length: RECIPIENTS }, (_, i) => ({ email: `r${i}-${tag}@example.com` })),
    );
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Crash',
      subject: `Crash ${tag}`,
      body: '<p>Hello {{ email }}</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });
    const mine = () => stack.smtp.messages.filter((m) => m.parsed.subject === `Crash ${tag}`);

    // Once `threshold` messages have arrived the server holds the next ones unanswered, and the
    // worker is killed while they are in flight (their senders never hear a 250, so the server
    // drops them and they must be sent again). The kill waits until every answered message is
    // recorded SENT: a worker dying between a 250 and its own commit would send that one again,
    // a gap no SMTP client can close (docs/api.md).
    let threshold = Number.POSITIVE_INFINITY;
    let release: () => void = () => undefined;
    let released = Promise.resolve();
    let held: { closed: () => boolean }[] = [];
    stack.smtp.setResponder(async (message, connection) => {
      if (mine().length >= threshold) {
        held.push(connection);
        await released;
      }
    });
    const sentRows = async (): Promise<number> =>
      withDatabase(
        async (db) =>
          (
            await db.query(
              `SELECT count(*)::int AS n FROM emails WHERE campaign_id = $1 AND status = 'SENT'`,
              [campaign.id],
            )
          ).rows[0].n,
      );
    const killAt = async (count: number): Promise<number> => {
      held = [];
      released = new Promise<void>((resolve) => {
        release = resolve;
      });
      threshold = count;
      await eventually(async () => held.length >= 2 && (await sentRows()) === mine().length, {
        what: 'two held messages with every answered one SENT',
        timeoutMs: 120_000,
        intervalMs: 10,
      });
      await stack.stopWorker('SIGKILL');
      const atKill = mine().length;
      await eventually(() => held.every((c) => c.closed()), {
        what: 'the held connections to close',
        intervalMs: 10,
      });
      threshold = Number.POSITIVE_INFINITY;
      release();
      await stack.startWorker();
      return atKill;
    };

    try {
      const sent = await stack.api.post(`/campaigns/${campaign.id}/send`, sk);
      expect(sent.status, sent.text).toBe(200);
      const first = await killAt(800);
      const second = await killAt(2400);
      const done = await waitForCampaign(stack.api, sk, campaign.id, { timeoutMs: 240_000 });
      expect(done.status).toBe('SENT');
      // Time for a second copy of anything, should one be on its way.
      await new Promise((r) => setTimeout(r, 2000));
      const counts = new Map<string, number>();
      for (const m of mine()) for (const t of m.to) counts.set(t, (counts.get(t) ?? 0) + 1);
      const twice = [...counts.entries()].filter(([, n]) => n > 1);
      console.log(
        `delivered at the kills: ${first}, ${second}; in all: ${mine().length}; duplicates: ${twice.length}`,
      );
      expect(twice).toEqual([]);
      expect(counts.size).toBe(RECIPIENTS);
      expect(mine().length).toBe(RECIPIENTS);
      expect(await campaignStats(stack.api, sk, campaign.id)).toMatchObject({
        recipients: RECIPIENTS,
        sent: RECIPIENTS,
        skipped: 0,
        failed: 0,
        cancelled: 0,
        queued: 0,
        pending: 0,
      });
    } finally {
      stack.smtp.setResponder(undefined);
    }
  }, 420_000);
});
