import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countSentEmails, withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { eventually } from '../helpers/eventually.js';
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

const EMAILS = 20;

describe('a worker killed between the 250s and their commit', () => {
  it('sends those emails again: none is dropped, each is SENT with one email.sent', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('gap'));
    const recipients = Array.from(
      { length: EMAILS },
      (_, i) => `gap-${i}-${Date.now()}@example.com`,
    );
    const res = await stack.api.post('/v1/send', {
      ...sk,
      body: { to: recipients, subject: 'Gap', body: '<p>b</p>', from: `a@${domain}` },
    });
    expect(res.status, res.text).toBe(200);
    const idOf = new Map<string, string>(
      res.body.data.emails.map((e: { email: string; contact: { email: string } }) => [
        e.contact.email,
        e.email,
      ]),
    );
    const ids = [...idOf.values()];
    const delivered = () =>
      stack.smtp.messages.filter((m) => m.to.some((t) => idOf.has(t))).flatMap((m) => m.to);

    // Before answering 250 for a message, the server's side takes its email row's lock in a
    // transaction of the test's: the worker hears the 250 but its commit of SENT waits on the
    // lock, so the worker can be killed with every message accepted and none recorded.
    await withDatabase(async (locker: pg.Client) => {
      await locker.query('BEGIN');
      const locking = new Set<string>();
      stack.smtp.setResponder(async (message) => {
        for (const to of message.to) {
          const id = idOf.get(to);
          if (!id || locking.has(id)) continue;
          locking.add(id);
          await locker.query('SELECT 1 FROM emails WHERE id = $1 FOR UPDATE', [id]);
        }
      });
      const sentRows = (): Promise<number> => countSentEmails(ids);
      await eventually(
        async () => new Set(delivered()).size === EMAILS && (await sentRows()) === 0,
        { what: 'every email accepted, none recorded', intervalMs: 20 },
      );
      await stack.stopWorker('SIGKILL');
      // The killed worker's waiting statement must not commit once the lock goes: end it, as
      // the crash would have had it never reach the server.
      await withDatabase(async (db) => {
        await db.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND pid <> $1 AND query ILIKE '%email.sent%'`,
          [(await locker.query('SELECT pg_backend_pid() AS pid')).rows[0].pid],
        );
      });
      stack.smtp.setResponder(undefined);
      await locker.query('ROLLBACK');
      expect(await sentRows()).toBe(0);
    });
    const atKill = delivered().length;

    await stack.startWorker();
    let sent = 0;
    await eventually(
      async () => {
        sent = (
          await withDatabase((db) =>
            db.query(
              `SELECT count(*)::int AS n FROM emails WHERE id = ANY($1::uuid[]) AND status = 'SENT'`,
              [ids],
            ),
          )
        ).rows[0].n;
        return sent === EMAILS;
      },
      {
        what: 'every email SENT',
        timeoutMs: 120_000,
        intervalMs: 200,
        describe: () => `${sent} SENT`,
      },
    );
    const counts = new Map<string, number>();
    for (const to of delivered()) counts.set(to, (counts.get(to) ?? 0) + 1);
    console.log(`delivered before the kill: ${atKill}; in all: ${delivered().length}`);
    // None dropped; each accepted-but-unrecorded email went a second time (the documented gap).
    expect(counts.size).toBe(EMAILS);
    expect([...counts.values()].every((n) => n === 2)).toBe(true);
    const events = await withDatabase(
      async (db) =>
        (
          await db.query(
            `SELECT data->>'emailId' AS id, count(*)::int AS n FROM events
              WHERE name = 'email.sent' AND data->>'emailId' = ANY($1::text[]) GROUP BY 1`,
            [ids],
          )
        ).rows,
    );
    expect(events).toHaveLength(EMAILS);
    expect(events.every((e: { n: number }) => e.n === 1)).toBe(true);
  }, 240_000);
});
