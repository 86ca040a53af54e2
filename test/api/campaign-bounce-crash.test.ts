import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../runtime/embedded/free-port.js';
import {
  campaignStats,
  createCampaign,
  importContacts,
  waitForCampaign,
} from '../helpers/campaigns.js';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { eventually } from '../helpers/eventually.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { dsnMessage } from '../helpers/report-messages.js';
import { deliverToInbound, returnPathDomain } from '../helpers/return-path-mail.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

// Bounces during a running campaign whose worker is killed (issue 30): the relay refuses some
// addresses outright (550 5.1.1) and others bounce later with a DSN to their return path, some
// while the worker is dead; every bounced address is bounced, suppressed and counted once.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
let inboundPort: number;
beforeAll(async () => {
  inboundPort = await freePort();
  // Two SMTP connections, so that holding both stops the sending; a project send rate the two
  // never reach (send-throttle.test.ts tests the throttle).
  ({ dns, stack, stop } = await startSendingStack({
    SMTP_POOL_SIZE: '2',
    SEND_RATE_PER_SECOND: '100000',
    INBOUND_SMTP_PORT: String(inboundPort),
    INBOUND_MX_HOST: 'mx.bounce-crash.test',
  }));
});
afterAll(async () => {
  await stop?.();
});

const RECIPIENTS = 300;
/** Refused by the relay at once: every tenth address. */
const isDead = (i: number): boolean => i % 10 === 0;
/** Accepted, then bounced by a DSN to the return path: every tenth, five further on. */
const isLate = (i: number): boolean => i % 10 === 5;
/** The worker is killed while the first refusal after this many attempts is in flight. */
const KILL_AFTER = 100;
/** Refused addresses that a remote system reports again with a DSN (twice each). */
const DEAD_REPORTED = 3;

const rows = <T>(text: string, params: unknown[]) =>
  withDatabase(async (db) => (await db.query(text, params)).rows as T[]);

describe('bounces during a campaign whose worker is killed', () => {
  it('bounces, suppresses and counts each bounced address once', async () => {
    const { sk, project } = await projectFixture(stack.api);
    const domain = await returnPathDomain(stack.api, dns, sk, 'bounce-crash');
    const tag = `bc-${Date.now()}`;
    const addresses = Array.from({ length: RECIPIENTS }, (_, i) => `r${i}-${tag}@example.com`);
    const dead = new Set(addresses.filter((_, i) => isDead(i)));
    const late = new Set(addresses.filter((_, i) => isLate(i)));
    await importContacts(
      stack.api,
      sk,
      addresses.map((email) => ({ email })),
    );
    const subject = `Bounces ${tag}`;
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Bounces',
      subject,
      body: '<p>Hello {{ email }}</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });
    const accepted = () => stack.smtp.messages.filter((m) => m.parsed.subject === subject);

    // Every attempt's return path, by address; refusals answered so far.
    const returnPaths = new Map<string, string>();
    let attempts = 0;
    let refused = 0;
    // From the first refusal after KILL_AFTER attempts on, every message is held unanswered.
    let holding = false;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held: { to: string; closed: () => boolean }[] = [];
    stack.smtp.setResponder(async (message, connection) => {
      const to = message.to[0] as string;
      if (!to.endsWith(`-${tag}@example.com`)) return;
      attempts += 1;
      returnPaths.set(to, message.from);
      if (!holding && attempts > KILL_AFTER && dead.has(to)) holding = true;
      if (holding) {
        held.push({ to, closed: connection.closed });
        await released;
      }
      if (dead.has(to)) {
        if (!connection.closed()) refused += 1;
        throw Object.assign(new Error(`5.1.1 <${to}>: Recipient address rejected: User unknown`), {
          responseCode: 550,
        });
      }
    });
    const answeredRows = async (): Promise<number> =>
      (
        await rows<{ n: number }>(
          `SELECT count(*)::int AS n FROM emails
            WHERE campaign_id = $1 AND status IN ('SENT', 'BOUNCED')`,
          [campaign.id],
        )
      )[0]?.n ?? 0;
    const bounceDsn = async (to: string): Promise<void> => {
      const returnPath = returnPaths.get(to) as string;
      const raw = dsnMessage({ to: returnPath, recipient: to });
      // Mail systems send a report again when they are unsure it arrived.
      await deliverToInbound({ port: inboundPort, raw, rcpt: returnPath });
      await deliverToInbound({ port: inboundPort, raw, rcpt: returnPath });
    };
    const lateAccepted = () =>
      [...new Set(accepted().flatMap((m) => m.to))].filter((to) => late.has(to));

    try {
      const sent = await stack.api.post(`/campaigns/${campaign.id}/send`, sk);
      expect(sent.status, sent.text).toBe(200);

      // Both connections held, a refusal among them, everything answered before recorded.
      await eventually(
        async () =>
          held.length >= 2 && (await answeredRows()) === accepted().length + refused && held,
        { what: 'two held messages, a refusal among them', timeoutMs: 120_000, intervalMs: 20 },
      );
      expect(dead.has(held[0]?.to as string)).toBe(true);
      // Late bounces of mail accepted so far arrive while the worker is stuck, then dead.
      const early = lateAccepted();
      expect(early.length).toBeGreaterThan(0);
      await bounceDsn(early[0] as string);
      await stack.stopWorker('SIGKILL');
      await eventually(() => held.every((h) => h.closed()), {
        what: 'the held connections to close',
        intervalMs: 10,
      });
      for (const to of early.slice(1)) await bounceDsn(to);
      holding = false;
      release();
      await stack.startWorker();

      const done = await waitForCampaign(stack.api, sk, campaign.id, { timeoutMs: 240_000 });
      expect(done.status).toBe('SENT');
      // The rest of the late bounces after the campaign ended; and reports about addresses the
      // relay already refused, which change nothing more.
      const rest = lateAccepted().filter((to) => !early.includes(to));
      expect(early.length + rest.length).toBe(late.size);
      for (const to of rest) await bounceDsn(to);
      const deadAgain = [...dead].slice(0, DEAD_REPORTED);
      for (const to of deadAgain) await bounceDsn(to);
    } finally {
      stack.smtp.setResponder(undefined);
    }

    // Exactly one email.bounced per bounced address, with where it was learnt.
    const bounces = await rows<{ to_address: string; n: number; sources: string[] }>(
      `SELECT e.to_address, count(*)::int AS n, array_agg(ev.data ->> 'source') AS sources
         FROM events ev JOIN emails e ON e.id = (ev.data ->> 'emailId')::uuid
        WHERE ev.project_id = $1 AND ev.name = 'email.bounced'
        GROUP BY e.to_address`,
      [project.id],
    );
    expect(bounces.filter((b) => b.n !== 1)).toEqual([]);
    expect(new Set(bounces.map((b) => b.to_address))).toEqual(new Set([...dead, ...late]));
    for (const b of bounces)
      expect(b.sources, b.to_address).toEqual([dead.has(b.to_address) ? 'relay' : 'dsn']);

    // Each suppressed once, as a hard bounce.
    const suppressed = await rows<{ email: string; reason: string }>(
      'SELECT email, reason FROM suppressions WHERE project_id = $1',
      [project.id],
    );
    expect(suppressed).toHaveLength(dead.size + late.size);
    expect(new Set(suppressed.map((s) => s.email))).toEqual(new Set([...dead, ...late]));
    expect(new Set(suppressed.map((s) => s.reason))).toEqual(new Set(['hard_bounce']));

    // Each report read once: applied the first time, repeated after (every report of a refused
    // address is a repeat: its bounce was applied already).
    const reports = await rows<{ outcome: string; n: number }>(
      `SELECT outcome, count(*)::int AS n FROM delivery_reports WHERE project_id = $1
        GROUP BY outcome ORDER BY outcome`,
      [project.id],
    );
    expect(reports).toEqual([
      { outcome: 'applied', n: late.size },
      { outcome: 'repeated', n: late.size + 2 * DEAD_REPORTED },
    ]);

    // The campaign counts each bounce once; a refused address was never sent.
    const rowsByStatus = await rows<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM emails WHERE campaign_id = $1
        GROUP BY status ORDER BY status`,
      [campaign.id],
    );
    expect(rowsByStatus).toEqual([
      { status: 'BOUNCED', n: dead.size + late.size },
      { status: 'SENT', n: RECIPIENTS - dead.size - late.size },
    ]);
    expect(await campaignStats(stack.api, sk, campaign.id)).toMatchObject({
      recipients: RECIPIENTS,
      sent: RECIPIENTS - dead.size,
      bounced: dead.size + late.size,
      failed: 0,
      skipped: 0,
      cancelled: 0,
      queued: 0,
      pending: 0,
    });
    // No refused address reached anyone, and every other one did.
    const reached = new Set(accepted().flatMap((m) => m.to));
    expect([...dead].filter((to) => reached.has(to))).toEqual([]);
    expect(reached.size).toBe(RECIPIENTS - dead.size);
  }, 420_000);
});
