import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_LEASE_SECONDS } from '../../domain/webhooks/webhook-lane.service.js';
import { eventually } from '../helpers/eventually.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { chaosDomain, startChaosStack, type ChaosStack } from './helpers/chaos-stack.js';
import { expectRecovered, secondsSince } from './helpers/faults.js';
import { CHAOS_ENV } from './helpers/workloads.js';

/*
 * Event webhooks through an outage (issue 26, item 1): during a campaign, the customer's endpoint
 * (a loopback receiver) is down for 30 s and the worker is killed meanwhile. Every email.sent of
 * the campaign still reaches the endpoint, and the receiver, deduplicating on webhook-id, counts
 * each once. Waits between attempts are shortened the way tests shorten durations.
 */

const RECIPIENTS = 5_000;
const OUTAGE_MS = 30_000;
const log = (line: string): void => console.log(`chaos: ${line}`);

let stack: ChaosStack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  stack = await startChaosStack({
    ...CHAOS_ENV,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_DELAYS: '1s,2s,5s',
  });
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

describe('event webhooks: endpoint down 30 s and the worker killed meanwhile', () => {
  it(`during a ${RECIPIENTS}-recipient campaign: every email.sent delivered, each webhook-id counted once`, async () => {
    const { sk, project } = await projectFixture(stack.api);
    const { domain } = await chaosDomain(stack, sk.key);
    const tag = randomUUID().slice(0, 8);
    const path = `/chaos-${tag}`;
    const hook = await stack.api.post('/webhook-endpoints', {
      ...sk,
      body: { url: receiver.url(path), eventTypes: ['email.sent'] },
    });
    expect(hook.status, hook.text).toBe(201);
    await stack.query(
      `INSERT INTO contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
       SELECT uuid_generate_v7(), $1, 'w' || n || '-' || $3 || '@example.com', true, '{}', now(), now(), now()
         FROM generate_series(1, $2::int) AS n`,
      [project.id, RECIPIENTS, tag],
    );
    const created = await stack.api.post('/campaigns', {
      ...sk,
      body: {
        name: 'Webhook chaos',
        subject: `Hooks ${tag}`,
        body: '<p>Hello {{ email }}</p>',
        from: `news@${domain}`,
        audienceType: 'ALL',
      },
    });
    expect(created.status, created.text).toBe(201);
    const campaignId = created.body.data.id as string;

    // What the receiver counts: each webhook-id once, whatever was sent again.
    const requests = () => receiver.at(path);
    const distinct = () => new Set(requests().map((r) => String(r.headers['webhook-id'])));

    const sent = await stack.api.post(`/campaigns/${campaignId}/send`, sk);
    expect(sent.status, sent.text).toBe(200);
    await eventually(() => distinct().size >= RECIPIENTS * 0.2, {
      what: 'a fifth of the events delivered',
      timeoutMs: 300_000,
      intervalMs: 50,
    });

    const faultAt = Date.now();
    const atFault = distinct().size;
    await receiver.down();
    await stack.killWorker();
    await stack.startWorker();
    // The outage the scenario asks for (not a wait for anything).
    await new Promise((r) => setTimeout(r, Math.max(0, faultAt + OUTAGE_MS - Date.now())));
    const atRecovery = distinct().size;
    await receiver.up();
    await expectRecovered(stack);

    await eventually(
      async () => {
        const res = await stack.api.get(`/campaigns/${campaignId}`, sk);
        return res.status === 200 && res.body.data.status === 'SENT';
      },
      { what: 'the campaign to be sent', timeoutMs: 600_000, intervalMs: 500 },
    );
    await eventually(() => distinct().size >= RECIPIENTS, {
      what: 'every event at the endpoint',
      timeoutMs: 300_000,
      intervalMs: 200,
      describe: () => `${distinct().size} of ${RECIPIENTS}`,
    });
    const recovered = secondsSince(faultAt);

    const events = await stack.query<{ id: string }>(
      `SELECT id FROM events WHERE project_id = $1 AND name = 'email.sent'`,
      [project.id],
    );
    const delivered = new Set(requests().map((r) => JSON.parse(r.body).data.id as string));
    const lost = events.filter((e) => !delivered.has(e.id)).length;
    const repeats = requests().length - distinct().size;
    const byEvent = await stack.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE project_id = $1
        GROUP BY event_id HAVING count(*) > 1`,
      [project.id],
    );
    // Each answer is recorded with its batch, just after the receiver saw it; but a batch the
    // killed worker had sent and not yet recorded stays PENDING until its lease ends
    // (WEBHOOK_LEASE_SECONDS after its claim, so at most that long after the fault) and is then
    // sent again (a repeat, counted once above). Every event can be at the endpoint well before.
    const statuses = () =>
      stack.query<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE project_id = $1 GROUP BY status`,
        [project.id],
      );
    let seen: { status: string; n: number }[] = [];
    await eventually(
      async () => {
        seen = await statuses();
        return seen.length === 1 && seen[0]?.status === 'SUCCEEDED';
      },
      {
        what: 'every delivery recorded SUCCEEDED',
        describe: () => JSON.stringify(seen),
        timeoutMs: Math.max(30_000, faultAt + WEBHOOK_LEASE_SECONDS * 1000 + 30_000 - Date.now()),
      },
    );
    log(
      `webhooks: receiver down ${OUTAGE_MS / 1000} s + worker SIGKILL during campaign ${RECIPIENTS}: events ${events.length}, distinct webhook-ids ${distinct().size} (${atFault} before the outage, ${atRecovery - atFault} during it), requests ${requests().length} (${repeats} repeats, deduplicated by webhook-id), lost ${lost}, recovered in ${recovered} s`,
    );
    expect(events).toHaveLength(RECIPIENTS);
    expect(lost).toBe(0);
    expect(distinct().size).toBe(RECIPIENTS);
    // One delivery per event (so one webhook-id per event), every one answered.
    expect(byEvent).toEqual([]);
    expect(seen).toEqual([{ status: 'SUCCEEDED', n: RECIPIENTS }]);
  });
});
