import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeliveryLane } from '../../domain/sending/delivery-lane.service.js';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { startLaneHarness } from '../helpers/lane-harness.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

// A delivery lane whose batch came full (more mail may wait) claims the next batch once half of
// it is answered, so one slow answer does not leave the other connections idle until it comes.
// Each email is still sent once and marked SENT once.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

describe('a delivery lane with a backlog', () => {
  it('claims its next batch while an answer of the last one is still awaited', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('refill'));
    // This file's lane runs here, alone on the queue.
    await stack.stopWorker('SIGTERM');
    const recipients = Array.from({ length: 12 }, (_, i) => uniqueEmail(`refill-${i}`));
    const res = await stack.api.post('/v1/send', {
      ...sk,
      body: { to: recipients, subject: 'Refill', body: '<p>b</p>', from: `a@${domain}` },
    });
    expect(res.status, res.text).toBe(200);
    const emailIds = (res.body.data.emails as { email: string }[]).map((e) => e.email);

    // The first message to arrive waits for its answer until six have arrived: with a batch of
    // four, that needs a second claim while the first batch still has an email unanswered.
    const arrived: string[] = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    stack.smtp.setResponder(async (message) => {
      const to = message.to.find((address) => recipients.includes(address));
      if (!to) return;
      arrived.push(to);
      if (arrived.length >= 6) release();
      if (arrived.length === 1) await released;
    });

    const harness = await startLaneHarness(stack, { poolMax: 6 });
    try {
      const lane = runDeliveryLane({
        ...harness,
        slots: pLimit(4),
        token: 'refill-lane',
        runForMs: 4000,
        ratePerSecond: 1000,
        batchSize: 4,
        signal: new AbortController().signal,
      });
      // A lane that waited for its whole batch would hold the first answer forever (until the
      // lane's time is up, with five arrived at most).
      const sixArrived = await Promise.race([
        released.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3000)),
      ]);
      release();
      expect(sixArrived, `arrived before the first answer: ${arrived.length}`).toBe(true);

      const report = await lane;
      expect(report).toEqual({ sent: 12, failed: 0, retrying: 0 });
      const rows = await withDatabase(
        async (db) =>
          (
            await db.query<{ status: string; events: number }>(
              `SELECT e.status,
                      (SELECT count(*)::int FROM events v
                        WHERE v.name = 'email.sent' AND v.data ->> 'emailId' = e.id::text) AS events
                 FROM emails e WHERE e.id = ANY($1::uuid[])`,
              [emailIds],
            )
          ).rows,
      );
      expect(rows).toHaveLength(12);
      expect(rows.every((r) => r.status === 'SENT' && r.events === 1)).toBe(true);
      expect([...arrived].sort()).toEqual([...recipients].sort());
    } finally {
      stack.smtp.setResponder(undefined);
      await harness.close();
    }
  }, 120_000);
});
