import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign, importContacts, waitForCampaign } from '../helpers/campaigns.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';
import { buildWorkflow, firstExecutionWaitingAt, track } from '../helpers/workflows.js';
import { signedEmailCallback } from '../helpers/email-callback.js';

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;

/** What the test produced, to compare every figure with. */
let made: {
  sk: { key: string };
  campaignId: string;
  scheduledId: string;
  scheduledFor: string;
  executionId: string;
  bouncedContact: string;
  startedAt: Date;
};

const signedFeedback = (body: unknown) =>
  signedEmailCallback(body, { secret: stack.env.EMAIL_WEBHOOK_SECRET as string });

beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack());
  const startedAt = new Date();
  const { sk } = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('insights'));
  const tag = `ins-${Date.now()}`;

  // A campaign to three readers: two open it, one clicks.
  await importContacts(
    stack.api,
    sk,
    [0, 1, 2].map((i) => ({ email: `reader${i}-${tag}@example.com` })),
  );
  const campaign = await createCampaign(stack.api, sk, {
    name: 'Spring news',
    subject: `Spring ${tag}`,
    body: '<p>Hello</p><p><a href="https://example.com/spring">Read</a></p>',
    from: `news@${domain}`,
    audienceType: 'ALL',
  });
  expect((await stack.api.post(`/campaigns/${campaign.id}/send`, sk)).status).toBe(200);
  expect((await waitForCampaign(stack.api, sk, campaign.id)).status).toBe('SENT');
  const mails = stack.smtp.messages.filter((m) => m.parsed.subject === `Spring ${tag}`);
  expect(mails).toHaveLength(3);
  for (const mail of mails.slice(0, 2)) {
    const pixel = /src="([^"]*\/t\/o\/[^"]+)"/.exec(mail.parsed.html ?? '')?.[1];
    expect((await fetch(pixel as string)).status).toBe(200);
  }
  const link = /href="([^"]*\/t\/c\/[^"]+)"/.exec(mails[0]!.parsed.html ?? '')?.[1];
  expect((await fetch(link as string, { redirect: 'manual' })).status).toBe(302);

  // Two transactional emails; one bounces.
  const sends = await stack.api.post('/v1/send', {
    ...sk,
    body: {
      to: [`buyer-${tag}@example.com`, `gone-${tag}@example.com`],
      subject: `Receipt ${tag}`,
      body: '<p>Thanks</p>',
      from: `shop@${domain}`,
    },
  });
  expect(sends.status, sends.text).toBe(200);
  await stack.smtp.waitFor(
    () => stack.smtp.messages.filter((m) => m.parsed.subject === `Receipt ${tag}`).length === 2,
  );
  const bounced = sends.body.data.emails[1];
  const bounce = await stack.api.post(
    '/webhooks/email',
    signedFeedback({ type: 'bounced', bounceType: 'hard', emailId: bounced.email }),
  );
  expect(bounce.status, bounce.text).toBe(200);

  // Custom events, and a workflow that waits ten minutes for a purchase.
  const workflow = await buildWorkflow(stack.api, sk, {
    name: 'Nudge',
    triggerEvent: 'signup',
    steps: {
      wait: { type: 'WAIT_FOR_EVENT', config: { eventName: 'upgrade', timeoutSeconds: 600 } },
      done: { type: 'UPDATE_CONTACT', config: { data: { nudged: true } } },
    },
    links: [
      ['wait', 'done', 'event'],
      ['wait', 'done', 'timeout'],
    ],
  });
  for (let i = 0; i < 3; i += 1) await track(stack.api, sk, `buyer-${tag}@example.com`, 'purchase');
  await track(stack.api, sk, `new-${tag}@example.com`, 'signup');
  const execution = await firstExecutionWaitingAt(stack.api, sk, workflow, 'wait');

  // A campaign for an hour from now.
  const later = await createCampaign(stack.api, sk, {
    name: 'Summer news',
    subject: `Summer ${tag}`,
    body: '<p>Soon</p>',
    from: `news@${domain}`,
    audienceType: 'ALL',
  });
  const scheduledFor = new Date(Date.now() + 3600_000).toISOString();
  expect(
    (await stack.api.post(`/campaigns/${later.id}/send`, { ...sk, body: { scheduledFor } })).status,
  ).toBe(200);

  made = {
    sk,
    campaignId: campaign.id,
    scheduledId: later.id,
    scheduledFor,
    executionId: execution!.id,
    bouncedContact: bounced.contact.id,
    startedAt,
  };
}, 180_000);
afterAll(async () => {
  await stop?.();
});

describe('the activity feed', () => {
  it('lists every send, open, click and bounce once, newest first, across cursor pages', async () => {
    const seen: any[] = [];
    let cursor: string | undefined;
    let first = true;
    do {
      const res = await stack.api.get(
        `/activity?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
        made.sk,
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.total).toBe(first ? 9 : 0);
      seen.push(...res.body.data);
      cursor = res.body.hasMore ? res.body.cursor : undefined;
      first = false;
    } while (cursor);
    expect(seen).toHaveLength(9);
    expect(new Set(seen.map((i) => i.id)).size).toBe(9);
    // Newest first by id (UUIDv7, the cursor's key), which carries the event's own time (its
    // transaction's start) to the millisecond: times never go up down the feed.
    const ids = seen.map((i) => i.id as string);
    expect(ids).toEqual([...ids].sort().reverse());
    const times = seen.map((i) => Date.parse(i.occurredAt));
    times.slice(1).forEach((time, i) => expect(time).toBeLessThanOrEqual(times[i]!));
    const count = (type: string) => seen.filter((i) => i.type === type).length;
    expect([count('sent'), count('opened'), count('clicked'), count('bounced')]).toEqual([
      5, 2, 1, 1,
    ]);
    const open = seen.find((i) => i.type === 'opened');
    expect(open).toMatchObject({
      campaign: { id: made.campaignId, name: 'Spring news' },
      subject: expect.stringMatching(/^Spring /),
      contact: { email: expect.stringMatching(/^reader/) },
    });
  });

  it('filters by type, campaign, contact and time', async () => {
    const get = async (query: string) => {
      const res = await stack.api.get(`/activity?${query}`, made.sk);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    expect((await get('type=opened,clicked')).total).toBe(3);
    expect((await get(`campaignId=${made.campaignId}`)).total).toBe(6);
    const bounced = await get(`contactId=${made.bouncedContact}`);
    expect(bounced.data.map((i: any) => i.type).sort()).toEqual(['bounced', 'sent']);
    expect((await get(`from=${new Date(Date.now() + 60_000).toISOString()}`)).total).toBe(0);
    // A time window is counted name by name: the same totals, alone and with the other filters.
    const since = `from=${made.startedAt.toISOString()}`;
    expect((await get(since)).total).toBe((await get('')).total);
    expect((await get(`${since}&to=${new Date().toISOString()}&type=opened,clicked`)).total).toBe(
      3,
    );
    expect((await get(`${since}&contactId=${made.bouncedContact}`)).total).toBe(2);
    expect((await get(`${since}&campaignId=${made.campaignId}`)).total).toBe(6);
    expect((await get(`to=${made.startedAt.toISOString()}`)).total).toBe(0);
    for (const bad of ['type=nope', 'contactId=x', 'from=yesterday', 'limit=101']) {
      expect((await stack.api.get(`/activity?${bad}`, made.sk)).status, bad).toBe(422);
    }
    // Another project sees none of it.
    const other = await projectFixture(stack.api);
    expect(
      (await stack.api.get(`/activity?campaignId=${made.campaignId}`, other.sk)).body.total,
    ).toBe(0);
  });

  it('counts per type, recently, and lists the types present', async () => {
    const stats = await stack.api.get('/activity/stats', made.sk);
    expect(stats.status, stats.text).toBe(200);
    expect(stats.body.counts).toEqual({
      sent: 5,
      delivered: 0,
      opened: 2,
      clicked: 1,
      bounced: 1,
      complained: 0,
      inbound: 0,
    });
    expect(stats.body.total).toBe(9);
    const recent = await stack.api.get('/activity/recent-count?minutes=60', made.sk);
    expect(recent.body).toEqual({ minutes: 60, count: 9 });
    for (const minutes of [0, 1441]) {
      expect(
        (await stack.api.get(`/activity/recent-count?minutes=${minutes}`, made.sk)).status,
      ).toBe(422);
    }
    const types = await stack.api.get('/activity/types', made.sk);
    expect(types.body).toEqual({ types: ['sent', 'opened', 'clicked', 'bounced'] });
  });

  it('shows the scheduled campaign and the waiting execution with its wake-up', async () => {
    const res = await stack.api.get('/activity/upcoming', made.sk);
    expect(res.status, res.text).toBe(200);
    expect(res.body.campaigns).toEqual([
      { id: made.scheduledId, name: 'Summer news', scheduledFor: made.scheduledFor },
    ]);
    expect(res.body.executions).toHaveLength(1);
    const [waiting] = res.body.executions;
    expect(waiting).toMatchObject({
      id: made.executionId,
      workflow: { name: 'Nudge' },
      stepType: 'WAIT_FOR_EVENT',
    });
    expect(Date.parse(waiting.wakesAt) - Date.parse(waiting.waitingSince)).toBe(600_000);
  });
});

describe('analytics', () => {
  it('answers a time series in UTC buckets, empty ones as zeros', async () => {
    const to = new Date(Date.now() + 60_000);
    const from = new Date(to.getTime() - 3 * 3600_000);
    const res = await stack.api.get(
      `/analytics/timeseries?granularity=hour&from=${from.toISOString()}&to=${to.toISOString()}`,
      made.sk,
    );
    expect(res.status, res.text).toBe(200);
    const buckets = res.body.buckets as any[];
    expect(buckets.length).toBeGreaterThanOrEqual(3);
    for (const b of buckets) expect(b.start).toMatch(/T\d\d:00:00\.000Z$/);
    const sum = (k: string) => buckets.reduce((a, b) => a + b[k], 0);
    expect([sum('sent'), sum('opened'), sum('clicked'), sum('bounced')]).toEqual([5, 2, 1, 1]);
    expect(buckets.filter((b) => b.sent === 0).length).toBeGreaterThan(0);

    const days = await stack.api.get(
      `/analytics/timeseries?from=${new Date(Date.now() - 6 * 86_400_000).toISOString()}`,
      made.sk,
    );
    expect(days.body.granularity).toBe('day');
    expect(days.body.buckets).toHaveLength(7);
    for (const b of days.body.buckets) expect(b.start).toMatch(/T00:00:00\.000Z$/);
    expect(days.body.buckets.at(-1).sent).toBe(5);
    // Hours over 30 days (720 buckets): counted by one grouping pass instead of per bucket.
    const hours = await stack.api.get('/analytics/timeseries?granularity=hour', made.sk);
    expect(hours.body.buckets.length).toBeGreaterThanOrEqual(720);
    expect(hours.body.buckets.reduce((a: number, b: any) => a + b.sent, 0)).toBe(5);
    expect(hours.body.buckets.reduce((a: number, b: any) => a + b.opened, 0)).toBe(2);
    const weeks = await stack.api.get('/analytics/timeseries?granularity=week', made.sk);
    expect(weeks.status).toBe(200);
    expect(weeks.body.buckets.reduce((a: number, b: any) => a + b.sent, 0)).toBe(5);
  });

  it('refuses a window that is backwards or longer than 366 days, and a bad granularity (422)', async () => {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    for (const query of [
      `from=${iso(now)}&to=${iso(now - 1000)}`,
      `from=${iso(now - 367 * 86_400_000)}&to=${iso(now)}`,
      'granularity=month',
    ]) {
      const res = await stack.api.get(`/analytics/timeseries?${query}`, made.sk);
      expect(res.status, query).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    // 366 days exactly passes.
    expect(
      (
        await stack.api.get(
          `/analytics/timeseries?from=${iso(now - 366 * 86_400_000)}&to=${iso(now)}`,
          made.sk,
        )
      ).status,
    ).toBe(200);
  });

  it('ranks campaigns, breaks them down and lists the top custom events', async () => {
    const top = await stack.api.get('/analytics/top-campaigns?metric=openRate', made.sk);
    expect(top.status, top.text).toBe(200);
    expect(top.body.campaigns).toHaveLength(1);
    expect(top.body.campaigns[0]).toMatchObject({
      id: made.campaignId,
      sent: 3,
      opened: 2,
      clicked: 1,
      openRate: 0.6667,
      clickRate: 0.3333,
    });
    expect((await stack.api.get('/analytics/top-campaigns?metric=bounces', made.sk)).status).toBe(
      422,
    );
    const breakdown = await stack.api.get('/analytics/campaign-stats', made.sk);
    expect(breakdown.body.campaigns.map((c: any) => c.id)).toEqual([made.campaignId]);
    const events = await stack.api.get('/analytics/top-events', made.sk);
    expect(events.body.events).toEqual([
      { name: 'purchase', count: 3 },
      { name: 'signup', count: 1 },
    ]);
  });
});
