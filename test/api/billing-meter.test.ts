import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billing,
  billingSender,
  closedSystemEmailRuns,
  runBillingSchedule as runBilling,
  startBillingStack,
  type BillingStack,
} from '../helpers/billing-stack.js';
import { withDatabase } from '../helpers/database.js';
import { keepHistoryOfCompletedRun } from '../helpers/histories.js';
import type { TestStack } from '../helpers/stack.js';

// The billing-usage run: each finished hour of usage reported to Stripe as a meter event, and
// each limit warning emailed to the project's owner. Both tests are in this one file because the
// run reads every project of the database and reports (and mails) through the stack that ran it:
// a run of another file's stack at the same moment would take this file's usage or warnings.

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
const runBillingSchedule = () => runBilling(stack);

describe('billing with Stripe (stripe-mock): the billing-usage run', () => {
  it('reports each finished hour of usage to Stripe once, as a meter event with a stable identifier', async () => {
    const { project, sk, domain } = await sender();
    const checkout = await stack.api.post(billing(project.id, 'checkout'), sk);
    expect(checkout.status, checkout.text).toBe(200);
    const send = await stack.api.post('/v1/send', {
      ...sk,
      body: {
        to: ['u1@example.com', 'u2@example.com', 'u3@example.com'],
        subject: 'Usage',
        body: '<p>b</p>',
        from: `a@${domain}`,
      },
    });
    expect(send.status, send.text).toBe(200);
    // Accepted two hours ago: a finished hour, due for its report.
    const hour = await withDatabase(async (db) => {
      await db.query(
        `UPDATE emails SET created_at = created_at - interval '2 hours' WHERE project_id = $1`,
        [project.id],
      );
      const { rows } = await db.query(
        `SELECT date_trunc('hour', min(created_at), 'UTC') AS hour FROM emails WHERE project_id = $1`,
        [project.id],
      );
      return rows[0].hour as Date;
    });
    const identifier = `mailwright-${project.id}-transactional-${hour.toISOString()}`;
    const meterEvents = () =>
      billed.stripeRequests.filter(
        (r) => r.path === '/v1/billing/meter_events' && r.body.get('identifier') === identifier,
      );

    await runBillingSchedule();
    expect(meterEvents()).toHaveLength(1);
    const [event] = meterEvents();
    expect(event!.body.get('event_name')).toBe('mailwright_emails');
    expect(event!.body.get('payload[value]')).toBe('3');
    expect(event!.body.get('payload[category]')).toBe('transactional');
    expect(event!.body.get('payload[stripe_customer_id]')).toMatch(/^cus_/);

    // Reported: the next run sends nothing for that hour.
    await runBillingSchedule();
    expect(meterEvents()).toHaveLength(1);
    // A report that died before recording its row sends the same identifier again, which
    // Stripe counts once.
    await withDatabase((db) =>
      db.query('DELETE FROM billing_reports WHERE project_id = $1', [project.id]),
    );
    await runBillingSchedule();
    expect(meterEvents()).toHaveLength(2);
    expect(meterEvents()[1]!.body.get('payload[value]')).toBe('3');
    await keepHistoryOfCompletedRun(
      'report-billing-usage',
      'reportBillingUsage',
      stack.env.TEMPORAL_TASK_QUEUE as string,
    );
  }, 240_000);

  it('records billing.limit_warning once per period at 80 % of a cap, again for a new cap', async () => {
    const { owner, project, sk, domain } = await sender();
    await stack.api.put(billing(project.id, 'billing-limits'), {
      ...sk,
      body: { transactional: 5 },
    });
    const send = async () => {
      const res = await stack.api.post('/v1/send', {
        ...sk,
        body: {
          to: `warn-${randomUUID().slice(0, 8)}@example.com`,
          subject: 'Warn',
          body: '<p>b</p>',
          from: `a@${domain}`,
        },
      });
      expect(res.status, res.text).toBe(200);
    };
    const warnings = async () => {
      const res = await stack.api.get('/events?event=billing.limit_warning', sk);
      expect(res.status, res.text).toBe(200);
      return res.body.data as {
        contactId: string | null;
        contactEmail: string | null;
        data: Record<string, unknown>;
      }[];
    };
    const period = new Date().toISOString().slice(0, 8) + '01';

    // 3 of 5 (60 %): nothing; the 4th reaches 80 %: one event of the project (no contact).
    for (let i = 0; i < 3; i += 1) await send();
    expect(await warnings()).toHaveLength(0);
    const before = await stack.api.get(billing(project.id, 'billing-consumption'), sk);
    expect(before.body.categories.transactional).toEqual({ used: 3, cap: 5, warning: null });
    await send();
    const [warning] = await warnings();
    expect(await warnings()).toHaveLength(1);
    expect(warning).toMatchObject({
      contactId: null,
      contactEmail: null,
      data: { category: 'transactional', periodStart: period, used: 4, cap: 5, share: 0.8 },
    });
    // The 5th (100 %) warns no more.
    await send();
    expect(await warnings()).toHaveLength(1);
    const after = await stack.api.get(billing(project.id, 'billing-consumption'), sk);
    expect(after.body.categories.transactional).toMatchObject({
      used: 5,
      cap: 5,
      warning: { used: 4, cap: 5 },
    });
    expect(after.body.categories.campaigns.warning).toBeNull();

    // The same cap saved again starts the usage row afresh, yet the period is warned already.
    await stack.api.put(billing(project.id, 'billing-limits'), {
      ...sk,
      body: { transactional: 6 },
    });
    await stack.api.put(billing(project.id, 'billing-limits'), {
      ...sk,
      body: { transactional: 5 },
    });
    await stack.api.put(billing(project.id, 'billing-limits'), {
      ...sk,
      body: { transactional: 10 },
    });
    // A new cap of 10: 6 and 7 are under 80 %, 8 is a warning about the new cap.
    await send();
    await send();
    expect(await warnings()).toHaveLength(1);
    await send();
    const both = await warnings();
    expect(both.map((w) => w.data.cap)).toEqual([10, 5]);
    expect(both[0]!.data.used).toBe(8);

    // The service's own name: a client cannot track it, and top events leave it out.
    const tracked = await stack.api.post('/v1/track', {
      ...sk,
      body: { email: 'someone@example.com', event: 'billing.limit_warning' },
    });
    expect(tracked.status).toBe(422);
    const top = await stack.api.get('/analytics/top-events', sk);
    expect(top.status, top.text).toBe(200);
    expect(JSON.stringify(top.body)).not.toContain('billing.limit_warning');
    // Listed among the project's event names, and its stats count no contact for it.
    const names = await stack.api.get('/events/names', sk);
    expect(names.body.names.map((n: { name: string }) => n.name)).toContain(
      'billing.limit_warning',
    );

    // The billing-usage run emails each warning to the owner, once.
    const toOwner = () =>
      stack.smtp.messages.filter(
        (m) => m.to.includes(owner.email.toLowerCase()) && /80%/.test(m.parsed.subject ?? ''),
      );
    await runBillingSchedule();
    await expect.poll(() => toOwner().length, { timeout: 30_000 }).toBe(2);
    const mail = toOwner().find((m) => (m.parsed.text ?? '').includes('of its 10'));
    expect(mail?.parsed.subject).toMatch(/has used 80% of its monthly transactional cap/);
    expect(mail?.parsed.text).toContain('used 8 of its 10 transactional emails');
    // A second run mails them no more. Once it has completed, every system email it started
    // exists; once those have all closed, nothing more can reach the owner: then count.
    await runBillingSchedule();
    const mailRuns = await closedSystemEmailRuns(project.id);
    expect(mailRuns.filter((id) => id.includes('billing-warning'))).toHaveLength(2);
    expect(toOwner()).toHaveLength(2);
  }, 120_000);
});
