import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimQueuedEmails } from '../../db/sql/email-delivery.sql.js';
import { runDeliveryLane } from '../../domain/sending/delivery-lane.service.js';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { startLaneHarness } from '../helpers/lane-harness.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

describe('a delivery lane that cannot hand an email to its retry workflow', () => {
  it('leaves it queued, claimed by nobody until the lease ends, with the reason', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('handoff'));
    // This file's lane runs here, with a Temporal it cannot reach for the hand-off.
    await stack.stopWorker('SIGTERM');
    const to = uniqueEmail('greylisted');
    const res = await stack.api.post('/v1/send', {
      ...sk,
      body: { to, subject: 'Later', body: '<p>b</p>', from: `a@${domain}` },
    });
    expect(res.status, res.text).toBe(200);
    const emailId = res.body.data.emails[0].email as string;

    stack.smtp.setResponder((message) => {
      if (message.to.includes(to))
        throw Object.assign(new Error('Greylisted, try again later'), { responseCode: 451 });
    });
    const lane = await startLaneHarness(stack, { poolMax: 4 });
    const { queue, sql } = lane;
    try {
      const report = await runDeliveryLane({
        ...lane,
        slots: pLimit(2),
        token: 'test-lane',
        runForMs: 500,
        ratePerSecond: 1000,
        signal: new AbortController().signal,
      });
      expect(report).toEqual({ sent: 0, failed: 0, retrying: 0 });
      const [row] = await withDatabase(
        async (db) =>
          (
            await db.query(
              `SELECT status, claimed_by, workflow_started_at, error,
                      claimed_until > now() + interval '20 seconds' AS leased
                 FROM emails WHERE id = $1`,
              [emailId],
            )
          ).rows,
      );
      expect(row).toMatchObject({
        status: 'QUEUED',
        claimed_by: null,
        workflow_started_at: null,
        leased: true,
      });
      expect(row.error).toMatch(/451/);
      // Until the lease ends no lane takes it, not even one with the same token.
      const again = await claimQueuedEmails(sql, {
        queue,
        token: 'test-lane',
        limit: 50,
        leaseSeconds: 30,
        ratePerSecond: 1000,
      });
      expect(again.emails.map((e) => e.id)).not.toContain(emailId);
      expect(stack.smtp.messages.filter((m) => m.to.includes(to))).toHaveLength(0);
    } finally {
      stack.smtp.setResponder(undefined);
      await lane.close();
    }
  }, 120_000);
});
