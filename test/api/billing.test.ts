import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import nodemailer from 'nodemailer';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findExecutionStarts } from '../../db/sql/event-dispatch.sql.js';
import { createSql, createSqlPool } from '../../db/sql/sql.js';
import { EMAIL_QUEUED_CHANNEL } from '../../db/sql/wakeups.sql.js';
import { advanceExecution } from '../../domain/automation/execution-steps.service.js';
import { freePort } from '../../runtime/embedded/free-port.js';
import { createLogger } from '../../runtime/logger.js';
import { createPgQueueNotifier } from '../../runtime/pg-queue-notifier.js';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { createCampaign, importContacts, waitForCampaign } from '../helpers/campaigns.js';
import { createProject, signUp, uniqueEmail } from '../helpers/factories.js';
import { keepHistoryOfCompletedRun } from '../helpers/histories.js';
import { createClient } from '../helpers/http.js';
import { runEntryPoint } from '../helpers/processes.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';
import {
  buildWorkflow,
  ended,
  track,
  waitForExecution,
  waitForExecutions,
} from '../helpers/workflows.js';
import { eventually } from '../helpers/eventually.js';

const WEBHOOK_SECRET = `whsec_${randomUUID().replace(/-/g, '')}`;

/** What reached Stripe: every request, on its way to stripe-mock through a recording proxy. */
const stripeRequests: { method: string; path: string; body: URLSearchParams }[] = [];

/** A proxy in front of the run's stripe-mock that keeps every request it forwards. */
async function recordingProxy(target: string): Promise<{ url: string; close: () => void }> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      stripeRequests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        body: new URLSearchParams(body.toString()),
      });
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
let proxy: { url: string; close: () => void } | undefined;
let inboundPort: number;
beforeAll(async () => {
  proxy = await recordingProxy(inject('stack').stripeApiBase);
  inboundPort = await freePort();
  ({ dns, stack, stop } = await startSendingStack({
    INBOUND_SMTP_PORT: String(inboundPort),
    STRIPE_SECRET_KEY: 'sk_test_mailwright',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_ID: 'price_mailwright',
    STRIPE_API_BASE: proxy.url,
  }));
});
afterAll(async () => {
  await stop?.();
  proxy?.close();
});

const billing = (projectId: string, what: string) => `/users/@me/projects/${projectId}/${what}`;

async function sender() {
  const fixture = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain('bill'));
  return { ...fixture, domain };
}

/** A sending project whose workflows may send one email this month, and a template for it. */
async function senderCappedAtOneWorkflowEmail() {
  const made = await sender();
  await stack.api.put(billing(made.project.id, 'billing-limits'), {
    ...made.sk,
    body: { workflows: 1 },
  });
  const template = await stack.api.post('/templates', {
    ...made.sk,
    body: {
      name: 'Hello',
      subject: 'Hello',
      body: '<p>Hello</p>',
      type: 'TRANSACTIONAL',
      from: `hello@${made.domain}`,
    },
  });
  expect(template.status, template.text).toBe(201);
  return { ...made, template: template.body as { id: string } };
}

const emailCount = async (projectId: string): Promise<number> =>
  withDatabase(
    async (db) =>
      (await db.query('SELECT count(*)::int AS n FROM emails WHERE project_id = $1', [projectId]))
        .rows[0].n,
  );

/** Triggers the billing-usage schedule and waits until one more of its runs has completed. */
async function runBillingSchedule(): Promise<void> {
  const connection = await Connection.connect({ address: inject('stack').temporalAddress });
  try {
    const client = new TemporalClient({ connection });
    const completedRuns = async () => {
      let n = 0;
      for await (const _run of client.workflow.list({
        query: `WorkflowType = 'reportBillingUsage' AND TaskQueue = '${stack.env.TEMPORAL_TASK_QUEUE}' AND ExecutionStatus = 'Completed'`,
      }))
        n += 1;
      return n;
    };
    const before = await completedRuns();
    await client.schedule.getHandle(`billing-usage-${stack.env.TEMPORAL_TASK_QUEUE}`).trigger();
    await eventually(async () => (await completedRuns()) > before, {
      what: 'the billing-usage run to complete',
      timeoutMs: 60_000,
      intervalMs: 300,
    });
  } finally {
    await connection.close();
  }
}

/** A Stripe event as Stripe would post it, signed with the test secret at `timestamp`. */
function signedEvent(
  type: string,
  object: Record<string, unknown>,
  { id = `evt_${randomUUID().replace(/-/g, '')}`, timestamp = Math.floor(Date.now() / 1000) } = {},
) {
  const payload = JSON.stringify({ id, object: 'event', type, data: { object } });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: WEBHOOK_SECRET,
    timestamp,
  });
  return { id, payload, signature };
}

async function postWebhook(payload: string, signature: string) {
  return fetch(`${stack.env.PUBLIC_URL}/webhooks/incoming/stripe`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body: payload,
  });
}

describe('billing with Stripe (stripe-mock)', () => {
  it('opens checkout and portal sessions for an OWNER or ADMIN; a MEMBER gets 403', async () => {
    const owner = await signUp(stack.api, 'owner');
    const member = await signUp(stack.api, 'member');
    const project = await createProject(stack.api, owner);
    const added = await stack.api.post(`/projects/${project.id}/members`, {
      cookie: owner.cookie,
      body: { email: member.email, role: 'MEMBER' },
    });
    expect(added.status, added.text).toBe(201);

    const checkout = await stack.api.post(billing(project.id, 'checkout'), {
      cookie: owner.cookie,
    });
    expect(checkout.status, checkout.text).toBe(200);
    expect(checkout.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const portal = await stack.api.post(billing(project.id, 'billing-portal'), {
      cookie: owner.cookie,
    });
    expect(portal.status, portal.text).toBe(200);
    expect(portal.body.url).toMatch(/^https:\/\//);
    // The customer is created once and kept.
    const customers = await withDatabase(
      async (db) =>
        (
          await db.query('SELECT stripe_customer_id FROM project_billing WHERE project_id = $1', [
            project.id,
          ])
        ).rows,
    );
    expect(customers).toHaveLength(1);
    expect(customers[0].stripe_customer_id).toMatch(/^cus_/);

    for (const path of ['checkout', 'billing-portal']) {
      const refused = await stack.api.post(billing(project.id, path), { cookie: member.cookie });
      expect(refused.status, refused.text).toBe(403);
    }
    const putByMember = await stack.api.put(billing(project.id, 'billing-limits'), {
      cookie: member.cookie,
      body: { transactional: 1 },
    });
    expect(putByMember.status).toBe(403);
    // A member may read them.
    expect(
      (await stack.api.get(billing(project.id, 'billing-limits'), { cookie: member.cookie }))
        .status,
    ).toBe(200);

    const invoices = await stack.api.get(billing(project.id, 'billing-invoices'), {
      cookie: owner.cookie,
    });
    expect(invoices.status, invoices.text).toBe(200);
    expect(invoices.body.length).toBeGreaterThan(0);
    expect(invoices.body[0]).toMatchObject({
      id: expect.stringMatching(/^in_/),
      currency: expect.any(String),
      amount: expect.any(Number),
    });
    expect((await stack.api.get('/config')).body.features.billing).toBe(true);
  });

  it('holds /v1/send to the transactional cap: N passes, N+1 is 402 and queues nothing', async () => {
    const { project, sk, domain } = await sender();
    const put = await stack.api.put(billing(project.id, 'billing-limits'), {
      ...sk,
      body: { transactional: 5, campaigns: null },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ transactional: 5, campaigns: null, workflows: null, inbound: null });
    const send = (to: string) =>
      stack.api.post('/v1/send', {
        ...sk,
        body: { to, subject: 'Capped', body: '<p>b</p>', from: `a@${domain}` },
      });
    for (let i = 0; i < 5; i += 1) {
      const res = await send(`cap${i}-${randomUUID().slice(0, 6)}@example.com`);
      expect(res.status, res.text).toBe(200);
    }
    const sixth = await send(`cap6-${randomUUID().slice(0, 6)}@example.com`);
    expect(sixth.status, sixth.text).toBe(402);
    expect(sixth.body.error.code).toBe('BILLING_LIMIT_EXCEEDED');
    expect(await emailCount(project.id)).toBe(5);
    // Two recipients when one is left: the whole send is refused.
    const consumption = await stack.api.get(billing(project.id, 'billing-consumption'), sk);
    expect(consumption.status, consumption.text).toBe(200);
    expect(consumption.body.categories.transactional).toMatchObject({ used: 5, cap: 5 });
    expect(consumption.body.plan).toBe('FREE');

    // Raised, the count goes on from the email rows.
    await stack.api.put(billing(project.id, 'billing-limits'), {
      ...sk,
      body: { transactional: 6 },
    });
    const both = await stack.api.post('/v1/send', {
      ...sk,
      body: {
        to: ['p1@example.com', 'p2@example.com'],
        subject: 'Two',
        body: '<p>b</p>',
        from: `a@${domain}`,
      },
    });
    expect(both.status).toBe(402);
    expect((await send(`last-${randomUUID().slice(0, 6)}@example.com`)).status).toBe(200);
    expect(await emailCount(project.id)).toBe(6);
  });

  it('lets exactly 10 of 20 concurrent sends through a cap of 10', async () => {
    const { project, sk, domain } = await sender();
    await stack.api.put(billing(project.id, 'billing-limits'), {
      ...sk,
      body: { transactional: 10 },
    });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stack.api.post('/v1/send', {
          ...sk,
          body: {
            to: `race${i}-${randomUUID().slice(0, 6)}@example.com`,
            subject: 'Race',
            body: '<p>b</p>',
            from: `a@${domain}`,
          },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(10);
    expect(await emailCount(project.id)).toBe(10);
    const consumption = await stack.api.get(billing(project.id, 'billing-consumption'), sk);
    expect(consumption.body.categories.transactional).toMatchObject({ used: 10, cap: 10 });
    // The ten that passed crossed 80 % together: one warning.
    const warnings = await stack.api.get('/events?event=billing.limit_warning', sk);
    expect(warnings.body.data).toHaveLength(1);
    expect(warnings.body.data[0].data).toMatchObject({ category: 'transactional', cap: 10 });
    expect(warnings.body.data[0].data.used).toBeGreaterThanOrEqual(8);
  });

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
    await runBillingSchedule();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(toOwner()).toHaveLength(2);
  }, 120_000);

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

  it('fails a workflow SEND_EMAIL step past the workflows cap, with the reason', async () => {
    const { project, sk, template } = await senderCappedAtOneWorkflowEmail();
    const workflow = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'joined',
      steps: { send: { type: 'SEND_EMAIL', config: { templateId: template.id } } },
    });
    await track(stack.api, sk, uniqueEmail('first'), 'joined');
    const [first] = await waitForExecutions(stack.api, sk, workflow.id);
    const done = await waitForExecution(stack.api, sk, workflow.id, first!.id, ended);
    expect(done.status, JSON.stringify(done.steps)).toBe('COMPLETED');
    await track(stack.api, sk, uniqueEmail('second'), 'joined');
    const executions = await waitForExecutions(stack.api, sk, workflow.id, { count: 2 });
    const second = executions.find((e) => e.id !== first!.id)!;
    const over = await waitForExecution(stack.api, sk, workflow.id, second.id, ended);
    expect(over.status).toBe('FAILED');
    expect(over.steps[0]).toMatchObject({ type: 'SEND_EMAIL', status: 'FAILED' });
    expect(over.steps[0]!.error).toMatch(/workflows cap of 1/);
    expect(await emailCount(project.id)).toBe(1);
  });

  it('lets a SEND_EMAIL step retried after its email took the last place of the cap go on', async () => {
    const { project, sk, template } = await senderCappedAtOneWorkflowEmail();
    const workflow = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'joined',
      steps: {
        send: { type: 'SEND_EMAIL', config: { templateId: template.id } },
        pause: { type: 'DELAY', config: { amount: 10, unit: 'minutes' } },
      },
      links: [['send', 'pause']],
    });
    await track(stack.api, sk, uniqueEmail('retried'), 'joined');
    const [execution] = await waitForExecutions(stack.api, sk, workflow.id);
    await waitForExecution(
      stack.api,
      sk,
      workflow.id,
      execution!.id,
      (x) => x.status === 'WAITING',
    );
    expect(await emailCount(project.id)).toBe(1);

    // The step runs again, as it does when a worker died before its completion was recorded:
    // the cap is full, but the email it finds is its own, so it goes on to the DELAY.
    const pool = createSqlPool({ url: inject('stack').databaseUrl, max: 1 });
    const notifier = createPgQueueNotifier({
      url: inject('stack').databaseUrl,
      channel: EMAIL_QUEUED_CHANNEL,
      logger: createLogger({ level: 'silent', name: 'test' }),
    });
    try {
      const sql = createSql(pool);
      const [start] = await findExecutionStarts(sql, { executionIds: [execution!.id] });
      const again = await advanceExecution({
        sql,
        emailNotifier: notifier,
        billingOn: true,
        ref: {
          executionId: start!.id,
          projectId: start!.project_id,
          workflowId: start!.workflow_id,
          contactId: start!.contact_id,
          queue: start!.queue,
        },
        graph: start!.graph,
        from: { stepId: workflow.steps.send as string, seq: 1 },
        scope: { trigger: null, context: {} },
      });
      expect(again).toMatchObject({ kind: 'waiting', stepId: workflow.steps.pause, seq: 2 });
    } finally {
      await notifier.close();
      await pool.end();
    }
    const after = await stack.api.get(`/workflows/${workflow.id}/executions/${execution!.id}`, sk);
    expect(after.body.status).toBe('WAITING');
    expect(after.body.steps[0]).toMatchObject({ type: 'SEND_EMAIL', status: 'COMPLETED' });
    expect(await emailCount(project.id)).toBe(1);
  });

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
      stripeRequests.filter(
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

  it('walks the setup-state through every onboarding step, the subscription included', async () => {
    const { owner, project, sk } = await projectFixture(stack.api);
    const state = async () =>
      (await stack.api.get(`/projects/${project.id}/setup-state`, sk)).body as {
        steps: Record<string, boolean>;
        completed: boolean;
      };
    expect(await state()).toEqual({
      projectId: project.id,
      steps: {
        ownerEmailVerified: false,
        teamInvited: false,
        domainVerified: false,
        templateCreated: false,
        contactAdded: false,
        emailSent: false,
        workflowEnabled: false,
        campaignSent: false,
        billingSubscribed: false,
      },
      completed: false,
    });

    const verification = await stack.smtp.waitFor((m) => m.to.includes(owner.email));
    const token = /\/auth\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(
      verification.parsed.text ?? '',
    )?.[1];
    expect((await stack.api.post('/auth/verify-email', { body: { token } })).status).toBe(200);
    const member = await signUp(stack.api, 'mate');
    await stack.api.post(`/projects/${project.id}/members`, {
      cookie: owner.cookie,
      body: { email: member.email, role: 'MEMBER' },
    });
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('setup'));
    const template = await stack.api.post('/templates', {
      ...sk,
      body: {
        name: 'T',
        subject: 'S',
        body: '<p>b</p>',
        type: 'TRANSACTIONAL',
        from: `a@${domain}`,
      },
    });
    expect(template.status, template.text).toBe(201);
    const to = uniqueEmail('first');
    const sent = await stack.api.post('/v1/send', {
      ...sk,
      body: { to, subject: 'First', body: '<p>b</p>', from: `a@${domain}` },
    });
    expect(sent.status, sent.text).toBe(200);
    await stack.smtp.waitFor((m) => m.to.includes(to.toLowerCase()));
    await buildWorkflow(stack.api, sk, {
      steps: { note: { type: 'UPDATE_CONTACT', config: { data: { welcomed: true } } } },
    });
    const campaign = await createCampaign(stack.api, sk, {
      name: 'First',
      subject: 'Hello',
      body: '<p>Hi</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });
    expect((await stack.api.post(`/campaigns/${campaign.id}/send`, sk)).status).toBe(200);
    await waitForCampaign(stack.api, sk, campaign.id);
    const before = await state();
    expect(before.steps.billingSubscribed).toBe(false);
    expect(before.completed).toBe(false);

    const completed = signedEvent('checkout.session.completed', {
      client_reference_id: project.id,
      customer: `cus_${randomUUID().slice(0, 12)}`,
    });
    expect((await postWebhook(completed.payload, completed.signature)).status).toBe(200);
    const after = await state();
    expect(Object.entries(after.steps).filter(([, done]) => !done)).toEqual([]);
    expect(after.completed).toBe(true);
  }, 120_000);

  it('refuses inbound mail past the inbound cap at DATA, and counts what it kept', async () => {
    const { project, sk, domain } = await sender();
    await stack.api.put(billing(project.id, 'billing-limits'), { ...sk, body: { inbound: 1 } });
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: inboundPort,
      secure: false,
      ignoreTLS: true,
    });
    try {
      const mail = (subject: string) =>
        transport.sendMail({ from: 'carol@example.com', to: `help@${domain}`, subject, text: 'x' });
      expect((await mail('First')).accepted).toHaveLength(1);
      await expect(mail('Second')).rejects.toMatchObject({ responseCode: 550 });
    } finally {
      transport.close();
    }
    const consumption = await stack.api.get(billing(project.id, 'billing-consumption'), sk);
    expect(consumption.body.categories.inbound).toMatchObject({
      used: 1,
      cap: 1,
      warning: { used: 1, cap: 1 },
    });
  });

  it('refuses bad caps with 422 and changes nothing', async () => {
    const { project, sk } = await projectFixture(stack.api);
    for (const body of [{ transactional: -1 }, { transactional: 1.5 }, { unknown: 3 }]) {
      const res = await stack.api.put(billing(project.id, 'billing-limits'), { ...sk, body });
      expect(res.status, res.text).toBe(422);
    }
    const caps = await stack.api.get(billing(project.id, 'billing-limits'), sk);
    expect(caps.body).toEqual({
      transactional: null,
      campaigns: null,
      workflows: null,
      inbound: null,
    });
    const other = await projectFixture(stack.api);
    expect((await stack.api.get(billing(project.id, 'billing-limits'), other.sk)).status).toBe(404);
  });

  it('keeps the plan from signed webhooks, each event once; a bad or stale signature is 400', async () => {
    const { project, sk } = await projectFixture(stack.api);
    const plan = async () =>
      (await stack.api.get(billing(project.id, 'billing-consumption'), sk)).body;

    const bad = signedEvent('checkout.session.completed', { client_reference_id: project.id });
    expect(
      (
        await postWebhook(
          bad.payload,
          bad.signature.replace(/v1=(\w)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`),
        )
      ).status,
    ).toBe(400);
    const stale = signedEvent(
      'checkout.session.completed',
      { client_reference_id: project.id },
      { timestamp: Math.floor(Date.now() / 1000) - 3600 },
    );
    expect((await postWebhook(stale.payload, stale.signature)).status).toBe(400);
    expect(await postWebhook(stale.payload, '')).toHaveProperty('status', 400);
    expect((await plan()).plan).toBe('FREE');

    const completed = signedEvent('checkout.session.completed', {
      object: 'checkout.session',
      client_reference_id: project.id,
      customer: `cus_${randomUUID().slice(0, 12)}`,
      subscription: 'sub_123',
    });
    const first = await postWebhook(completed.payload, completed.signature);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, applied: true });
    expect(await plan()).toMatchObject({ plan: 'PAID', subscriptionStatus: 'active' });

    // Stripe redelivers: the same event id changes nothing, even after a later change.
    const deleted = signedEvent('customer.subscription.deleted', {
      object: 'subscription',
      id: 'sub_123',
      status: 'canceled',
      metadata: { projectId: project.id },
    });
    expect((await postWebhook(deleted.payload, deleted.signature)).status).toBe(200);
    expect(await plan()).toMatchObject({ plan: 'FREE', subscriptionStatus: 'canceled' });
    const again = await postWebhook(completed.payload, completed.signature);
    expect(await again.json()).toEqual({ received: true, applied: false });
    expect(await plan()).toMatchObject({ plan: 'FREE' });
  });

  it('answers a clear 400 on every billing route when billing is off', async () => {
    const { project, sk } = await projectFixture(stack.api);
    const port = await freePort();
    const env = { ...stack.env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` };
    delete (env as Record<string, string | undefined>).STRIPE_SECRET_KEY;
    delete (env as Record<string, string | undefined>).INBOUND_SMTP_PORT; // the first API has it
    const api = runEntryPoint('runtime/api.ts', env);
    try {
      await api.waitForOutput(/"msg":"api listening"/, 90_000);
      const off = createClient(`http://127.0.0.1:${port}`);
      expect((await off.get('/config')).body.features.billing).toBe(false);
      for (const [method, path] of [
        ['post', 'checkout'],
        ['post', 'billing-portal'],
        ['get', 'billing-limits'],
        ['get', 'billing-consumption'],
        ['get', 'billing-invoices'],
      ] as const) {
        const res = await off[method](billing(project.id, path), sk);
        expect(res.status, `${path}: ${res.text}`).toBe(400);
        expect(res.body.error.message).toMatch(/Billing is off/);
      }
    } finally {
      await api.stop();
    }
  }, 120_000);
});
