import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * The webhook lanes wake when deliveries are queued: by the API (a test event, a retry) on the
 * `webhooks_pending` channel, by the dispatcher of their own worker for tracked events. Here the
 * idle lanes poll only every 10 minutes and live for 10, so a delivery that arrives within the
 * test's wait was woken for, not found by a poll or a lane's restart.
 */

let stack: TestStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  stack = await startStack({
    env: {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_INTERVAL: '10m',
      AUTOMATION_DISPATCH_LANE_SECONDS: '600',
    },
  });
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

const arrived = (path: string, count: number, what: string) =>
  eventually(() => receiver.at(path).length >= count, {
    what,
    describe: () => `${receiver.at(path).length} of ${count} arrived`,
  });

describe('webhook lane wake-ups (lanes polling every 10 minutes)', () => {
  it('delivers at once what the API queues and what the dispatcher queues', async () => {
    const { sk } = await projectFixture(stack.api);
    const created = await stack.api.post('/webhook-endpoints', {
      ...sk,
      body: { url: receiver.url('/woken'), eventTypes: ['signup'] },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    receiver.answer(() => ({ status: 204 }));

    // Queued by the API: the test event (a lane's first claim after the worker started may take
    // it), then a retry of it by hand, which only a wake-up can take.
    const test = await stack.api.post(`/webhook-endpoints/${id}/test`, sk);
    expect(test.status, test.text).toBe(202);
    await arrived('/woken', 1, 'the test event');
    await eventually(
      async () =>
        (await stack.api.get(`/webhook-endpoints/${id}/deliveries/${test.body.id}`, sk)).body
          .status === 'SUCCEEDED',
      { what: 'the test event logged' },
    );
    const retried = await stack.api.post(
      `/webhook-endpoints/${id}/deliveries/${test.body.id}/retry`,
      sk,
    );
    expect(retried.status, retried.text).toBe(202);
    await arrived('/woken', 2, 'the retried test event');

    // Queued by the dispatcher, from a tracked event.
    const tracked = await stack.api.post('/v1/track', {
      ...sk,
      body: { email: uniqueEmail('woken'), event: 'signup' },
    });
    expect(tracked.status, tracked.text).toBe(200);
    await arrived('/woken', 3, 'the tracked event');
    expect(receiver.at('/woken').map((r) => JSON.parse(r.body).type)).toEqual([
      'webhook.test',
      'webhook.test',
      'signup',
    ]);
  });
});
