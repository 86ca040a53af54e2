import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { uniqueEmail } from '../helpers/factories.js';
import { keepHistory } from '../helpers/histories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';
import {
  buildWorkflow,
  ended,
  track,
  waitForExecution,
  waitForExecutions,
} from '../helpers/workflows.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP server (loopback only) that records every request and answers `status`. */
async function startHookServer(host: string) {
  const received: Received[] = [];
  let answer: { status: number; body: string; headers?: Record<string, string> } = {
    status: 200,
    body: 'ok',
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(answer.status, answer.headers ?? { 'Content-Type': 'text/plain' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    answer: (next: typeof answer) => {
      answer = next;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type HookServer = Awaited<ReturnType<typeof startHookServer>>;

type Sk = { key: string };

async function webhookWorkflow(sk: Sk, config: Record<string, unknown>) {
  return buildWorkflow(stack().api, sk, {
    allowReentry: true,
    steps: { hook: { type: 'WEBHOOK', config } },
  });
}

let current: TestStack | undefined;
const stack = (): TestStack => current as TestStack;

async function runHook(
  sk: Sk,
  workflowId: string,
  email: string,
  data: Record<string, unknown> = {},
) {
  await track(stack().api, sk, email, 'signup', data);
  const [execution] = await waitForExecutions(stack().api, sk, workflowId);
  return waitForExecution(stack().api, sk, workflowId, execution!.id, ended, { timeoutMs: 60_000 });
}

describe('WEBHOOK with WEBHOOK_ALLOW_PRIVATE on', () => {
  let hooks: HookServer;
  beforeAll(async () => {
    hooks = await startHookServer('127.0.0.1');
    current = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(async () => {
    await current?.stop();
    await hooks?.stop();
  });

  it('sends the rendered request to a local server and keeps the answer in the step log', async () => {
    const { sk } = await projectFixture(stack().api);
    const workflow = await webhookWorkflow(sk, {
      url: `http://127.0.0.1:${hooks.port}/hooks/{{ data.plan }}`,
      method: 'POST',
      headers: { 'X-Contact': '{{ contact.email }}' },
      body: '{"email": "{{ contact.email }}", "note": "{{ event.note }}", "plan": "{{ data.plan }}"}',
    });
    hooks.answer({ status: 201, body: 'x'.repeat(3000) });
    const email = uniqueEmail('hook').toLowerCase();
    // A value with quotes and a line break stays inside its JSON string.
    const note = 'say "hi"\nthen leave';
    const done = await runHook(sk, workflow.id, email, {
      plan: 'pro',
      note: { value: note, persistent: false },
    });
    expect(done.status, JSON.stringify(done)).toBe('COMPLETED');
    const request = hooks.received.find((r) => r.headers['x-contact'] === email);
    expect(request).toBeDefined();
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/hooks/pro');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['idempotency-key']).toBe(`${done.id}:${workflow.steps.hook}`);
    expect(JSON.parse(request!.body)).toEqual({ email, note, plan: 'pro' });
    const step = done.steps[0]!;
    expect(step.status).toBe('COMPLETED');
    expect(step.result.status).toBe(201);
    expect(step.result.body).toBe('x'.repeat(1024));
    await keepHistory('execution.webhook', `execution-${done.id}`);
  });

  it('sends a JSON body with its strings rendered', async () => {
    const { sk } = await projectFixture(stack().api);
    const workflow = await webhookWorkflow(sk, {
      url: `http://127.0.0.1:${hooks.port}/json`,
      body: { contact: { email: '{{ contact.email }}' }, tags: ['{{ data.plan }}', 7], ok: true },
    });
    hooks.answer({ status: 200, body: 'fine' });
    const email = uniqueEmail('json').toLowerCase();
    const done = await runHook(sk, workflow.id, email, { plan: 'team' });
    expect(done.status).toBe('COMPLETED');
    const request = hooks.received.find((r) => r.url === '/json' && r.body.includes(email));
    expect(JSON.parse(request!.body)).toEqual({ contact: { email }, tags: ['team', 7], ok: true });
  });

  it('fails the step at once on a 4xx answer, and does not follow a redirect', async () => {
    const { sk } = await projectFixture(stack().api);
    for (const [status, headers] of [
      [404, undefined],
      [302, { Location: `http://127.0.0.1:${hooks.port}/elsewhere` }],
    ] as const) {
      const path = `/answer-${status}`;
      const workflow = await webhookWorkflow(sk, { url: `http://127.0.0.1:${hooks.port}${path}` });
      hooks.answer({ status, body: `nope ${status}`, headers });
      const done = await runHook(sk, workflow.id, uniqueEmail(`s${status}`));
      expect(done.status).toBe('FAILED');
      expect(done.steps[0]).toMatchObject({
        status: 'FAILED',
        error: `The webhook answered ${status}`,
        result: { status, body: `nope ${status}` },
      });
      expect(hooks.received.filter((r) => r.url === path)).toHaveLength(1);
    }
    expect(hooks.received.some((r) => r.url === '/elsewhere')).toBe(false);
  });

  it('tries a 5xx answer 3 times, then fails the step', async () => {
    const { sk } = await projectFixture(stack().api);
    const workflow = await webhookWorkflow(sk, { url: `http://127.0.0.1:${hooks.port}/flaky` });
    hooks.answer({ status: 503, body: 'busy' });
    const done = await runHook(sk, workflow.id, uniqueEmail('flaky'));
    expect(done.status).toBe('FAILED');
    expect(done.steps[0]).toMatchObject({ status: 'FAILED', result: { status: 503 } });
    expect(hooks.received.filter((r) => r.url === '/flaky')).toHaveLength(3);
    await keepHistory('execution.webhook-failed', `execution-${done.id}`);
  });
});

describe('WEBHOOK with WEBHOOK_ALLOW_PRIVATE off', () => {
  let dns: DnsServer;
  const servers: HookServer[] = [];
  let v4: HookServer;
  let v6: HookServer;
  let second: HookServer;
  beforeAll(async () => {
    v4 = await startHookServer('127.0.0.1');
    v6 = await startHookServer('::1');
    second = await startHookServer('127.0.0.2');
    servers.push(v4, v6, second);
    dns = await startDnsServer({ zones: ['webhook.test'] });
    dns.publishA('inside.webhook.test', '127.0.0.2');
    current = await startStack({ env: { DNS_SERVERS: dns.address } });
  });
  afterAll(async () => {
    await current?.stop();
    await dns?.stop();
    for (const server of servers) await server.stop();
  });

  it('refuses loopback addresses, however written or resolved: step FAILED with the reason', async () => {
    const { sk } = await projectFixture(stack().api);
    const targets = [
      [`http://127.0.0.1:${v4.port}/`, '127.0.0.1 is a loopback address'],
      [`http://[::1]:${v6.port}/`, '::1 is a loopback address'],
      [`http://[::ffff:127.0.0.1]:${v4.port}/`, 'is an IPv4-mapped address'],
      [`http://inside.webhook.test:${second.port}/`, '127.0.0.2 is a loopback address'],
    ];
    for (const [url, reason] of targets) {
      const workflow = await webhookWorkflow(sk, { url });
      const done = await runHook(sk, workflow.id, uniqueEmail('refused'));
      expect(done.status, url).toBe('FAILED');
      expect(done.steps[0]?.status).toBe('FAILED');
      expect(done.steps[0]?.error, url).toContain(reason);
    }
    for (const server of servers) expect(server.received).toEqual([]);
  });
});
