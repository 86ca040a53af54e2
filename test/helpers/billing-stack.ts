import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import Stripe from 'stripe';
import { expect, inject } from 'vitest';
import { freePort } from '../../runtime/embedded/free-port.js';
import { withDatabase } from './database.js';
import type { DnsServer } from './dns-server.js';
import { uniqueDomain, verifiedDomain } from './domains.js';
import { eventually } from './eventually.js';
import { projectFixture } from './project-fixture.js';
import { startSendingStack } from './sending-stack.js';
import type { TestStack } from './stack.js';

// The setup the billing-*.test.ts files share: a sending stack with billing on (Stripe through
// stripe-mock, behind a proxy that records what reached it), inbound mail on a port of its own,
// and the HTTP, SQL and Temporal steps those files take.

/** One request that reached Stripe. */
export interface StripeRequest {
  method: string;
  path: string;
  body: URLSearchParams;
}

export interface BillingStack {
  stack: TestStack;
  dns: DnsServer;
  /** The port the stack receives inbound mail on. */
  inboundPort: number;
  /** What reached Stripe: every request, on its way to stripe-mock through the proxy. */
  stripeRequests: StripeRequest[];
  /** The secret Stripe signs its webhooks with (see signedStripeEvent). */
  webhookSecret: string;
  stop: () => Promise<void>;
}

/** A proxy in front of the run's stripe-mock that keeps every request it forwards. */
async function recordingProxy(
  target: string,
  requests: StripeRequest[],
): Promise<{ url: string; close: () => void }> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({
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

/** A test file's sending stack with billing on; `stop` ends it and the proxy. */
export async function startBillingStack(): Promise<BillingStack> {
  const webhookSecret = `whsec_${randomUUID().replace(/-/g, '')}`;
  const stripeRequests: StripeRequest[] = [];
  const proxy = await recordingProxy(inject('stack').stripeApiBase, stripeRequests);
  try {
    const inboundPort = await freePort();
    const { dns, stack, stop } = await startSendingStack({
      INBOUND_SMTP_PORT: String(inboundPort),
      STRIPE_SECRET_KEY: 'sk_test_mailwright',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_PRICE_ID: 'price_mailwright',
      STRIPE_API_BASE: proxy.url,
    });
    return {
      stack,
      dns,
      inboundPort,
      stripeRequests,
      webhookSecret,
      stop: async () => {
        try {
          await stop();
        } finally {
          proxy.close();
        }
      },
    };
  } catch (error) {
    proxy.close();
    throw error;
  }
}

/** The path of one of a project's billing routes. */
export const billing = (projectId: string, what: string): string =>
  `/users/@me/projects/${projectId}/${what}`;

/** A project with a verified domain to send from. */
export async function billingSender({ stack, dns }: Pick<BillingStack, 'stack' | 'dns'>) {
  const fixture = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain('bill'));
  return { ...fixture, domain };
}

/** A sending project whose workflows may send one email this month, and a template for it. */
export async function senderCappedAtOneWorkflowEmail(billed: Pick<BillingStack, 'stack' | 'dns'>) {
  const { stack } = billed;
  const made = await billingSender(billed);
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

/** The project's rows in the outbox. */
export const emailCount = async (projectId: string): Promise<number> =>
  withDatabase(
    async (db) =>
      (await db.query('SELECT count(*)::int AS n FROM emails WHERE project_id = $1', [projectId]))
        .rows[0].n,
  );

/**
 * Triggers the billing-usage schedule of the stack's task queue and waits until one more of its
 * runs has completed. The run reads every project of the database: a test that counts what it
 * reported or mailed must not share a moment with another stack's run (see billing-meter).
 */
export async function runBillingSchedule(stack: TestStack): Promise<void> {
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

/**
 * The project's system-email runs (the mails the service sends of itself, such as a limit
 * warning to the owner), once none of them is still running: after that, none can send more.
 */
export async function closedSystemEmailRuns(projectId: string): Promise<string[]> {
  const connection = await Connection.connect({ address: inject('stack').temporalAddress });
  try {
    const client = new TemporalClient({ connection });
    let seen: { id: string; status: string }[] = [];
    await eventually(
      async () => {
        seen = [];
        for await (const run of client.workflow.list({
          query: `WorkflowType = 'sendSystemEmail' AND ProjectId = '${projectId}'`,
        }))
          seen.push({ id: run.workflowId, status: run.status.name });
        return seen.every((run) => run.status !== 'RUNNING');
      },
      {
        what: `the system emails of project ${projectId} to be sent`,
        timeoutMs: 60_000,
        intervalMs: 200,
        describe: () => JSON.stringify(seen),
      },
    );
    return seen.map((run) => run.id);
  } finally {
    await connection.close();
  }
}

/** A Stripe event as Stripe would post it, signed with the stack's secret at `timestamp`. */
export function signedStripeEvent(
  { webhookSecret }: Pick<BillingStack, 'webhookSecret'>,
  type: string,
  object: Record<string, unknown>,
  { id = `evt_${randomUUID().replace(/-/g, '')}`, timestamp = Math.floor(Date.now() / 1000) } = {},
) {
  const payload = JSON.stringify({ id, object: 'event', type, data: { object } });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: webhookSecret,
    timestamp,
  });
  return { id, payload, signature };
}

/** Posts a Stripe webhook to the stack, as Stripe does. */
export async function postStripeWebhook(stack: TestStack, payload: string, signature: string) {
  return fetch(`${stack.env.PUBLIC_URL}/webhooks/incoming/stripe`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body: payload,
  });
}
