import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  campaignStats,
  createCampaign,
  importContacts,
  waitForCampaign,
} from '../helpers/campaigns.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { eventually } from '../helpers/eventually.js';
import { billing } from '../helpers/billing-stack.js';
import { withDatabase } from '../helpers/database.js';
import { keepHistory } from '../helpers/histories.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

let stack: TestStack;
let dns: DnsServer;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stack, dns, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

type Sk = { key: string };

/** A project with a verified domain and contacts: pro and free ones, one pro unsubscribed. */
async function campaignProject(label: string) {
  const { sk, project, owner } = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain(label));
  const tag = `${label}-${Date.now()}`;
  const people = {
    pro1: `pro1-${tag}@example.com`,
    pro2: `pro2-${tag}@example.com`,
    free1: `free1-${tag}@example.com`,
    proGone: `gone-${tag}@example.com`,
  };
  await importContacts(stack.api, sk, [
    { email: people.pro1, plan: 'pro' },
    { email: people.pro2, plan: 'pro' },
    { email: people.free1, plan: 'free' },
    { email: people.proGone, plan: 'pro', subscribed: false },
  ]);
  return { sk, project, owner, domain, people };
}

const received = (address: string) =>
  stack.smtp.messages.filter((m) => m.to.includes(address)).length;

const content = (domain: string) => ({
  subject: 'News for {{ plan | default("you") }}',
  body: '<p>Hello {{ email }}, <a href="https://example.com/offer">offer</a></p>',
  from: `news@${domain}`,
  fromName: 'The News',
});

/** Waits for the campaign's send to end, and expects it SENT. */
async function settle(sk: Sk, id: string) {
  const done = await waitForCampaign(stack.api, sk, id);
  expect(done.status).toBe('SENT');
  return done;
}

describe('campaign definitions', () => {
  it('creates, lists, replaces, duplicates and deletes drafts; envelope {success, data}', async () => {
    const { sk, domain } = await campaignProject('crud');
    const created = await createCampaign(stack.api, sk, {
      name: 'Spring',
      ...content(domain),
      audienceType: 'ALL',
    });
    expect(created).toMatchObject({
      name: 'Spring',
      type: 'ALL',
      status: 'DRAFT',
      scheduledAt: null,
      from: `news@${domain}`,
    });

    const put = await stack.api.put(`/campaigns/${created.id}`, {
      ...sk,
      body: { name: 'Spring 2', ...content(domain), subject: 'Changed', audienceType: 'ALL' },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({
      success: true,
      data: { name: 'Spring 2', subject: 'Changed' },
    });

    const copy = await stack.api.post(`/campaigns/${created.id}/duplicate`, sk);
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body.data).toMatchObject({ name: 'Spring 2 (copy)', status: 'DRAFT' });
    expect(copy.body.data.id).not.toBe(created.id);

    const first = await stack.api.get('/campaigns?limit=1', sk);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({ total: 2, hasMore: true });
    expect(first.body.data.campaigns[0].id).toBe(copy.body.data.id);
    const second = await stack.api.get(`/campaigns?limit=1&cursor=${first.body.data.cursor}`, sk);
    expect(second.body.data.campaigns[0].id).toBe(created.id);
    expect(second.body.data).toMatchObject({ total: 0, hasMore: false });
    const drafts = await stack.api.get('/campaigns?status=SENT', sk);
    expect(drafts.body.data.campaigns).toEqual([]);

    const deleted = await stack.api.delete(`/campaigns/${copy.body.data.id}`, sk);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await stack.api.get(`/campaigns/${copy.body.data.id}`, sk)).status).toBe(404);
  });

  it('refuses bad input with 422 and changes nothing; pk_ is 401; another project gets 404', async () => {
    const { sk, domain, project } = await campaignProject('refuse');
    const cases: [Record<string, unknown>, string][] = [
      [
        {
          name: 'x',
          ...content(domain),
          from: 'news@unverified.example.test',
          audienceType: 'ALL',
        },
        'from',
      ],
      // A domain that merely ends like the verified one is not a subdomain of it.
      [{ name: 'x', ...content(domain), from: `news@x${domain}`, audienceType: 'ALL' }, 'from'],
      [{ name: 'x', ...content(domain), audienceType: 'SEGMENT' }, 'segmentId'],
      [
        {
          name: 'x',
          ...content(domain),
          audienceType: 'SEGMENT',
          segmentId: '00000000-0000-7000-8000-000000000000',
        },
        'segmentId',
      ],
      [{ name: 'x', ...content(domain), audienceType: 'FILTERED' }, 'audienceFilter'],
      [
        {
          name: 'x',
          ...content(domain),
          audienceType: 'FILTERED',
          audienceCondition: {
            operator: 'AND',
            conditions: [{ field: 'data.plan', operator: 'nope' }],
          },
        },
        'audienceCondition.conditions.0.operator',
      ],
      [{ name: 'x', ...content(domain), audienceType: 'EVERYONE' }, 'audienceType'],
      [
        { name: 'x', ...content(domain), subject: 'a\r\nBcc: x@y.z', audienceType: 'ALL' },
        'subject',
      ],
      [{ name: 'x', body: '<p>hi</p>', from: `news@${domain}`, audienceType: 'ALL' }, 'subject'],
    ];
    for (const [body, field] of cases) {
      const res = await stack.api.post('/campaigns', { ...sk, body });
      expect(res.status, `${field}: ${res.text}`).toBe(422);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await stack.api.get('/campaigns', sk)).body.data.total).toBe(0);

    const campaign = await createCampaign(stack.api, sk, {
      name: 'Mine',
      ...content(domain),
      audienceType: 'ALL',
    });
    const { project: other } = await projectFixture(stack.api);
    const otherSk = { key: other.secretKey };
    const pk = await stack.api.get('/campaigns', { key: project.publicKey });
    expect(pk.status).toBe(401);
    for (const [method, path] of [
      ['get', ''],
      ['get', '/stats'],
      ['post', '/send'],
      ['post', '/cancel'],
      ['post', '/duplicate'],
      ['delete', ''],
    ] as const) {
      const res = await stack.api[method](`/campaigns/${campaign.id}${path}`, otherSk);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
    }
    expect((await stack.api.get(`/campaigns/${campaign.id}`, sk)).body.data.status).toBe('DRAFT');
  });
});

describe('sending a campaign', () => {
  it('sends to ALL, a SEGMENT and a FILTERED audience: each member once, unsubscribed skipped', async () => {
    const { sk, project, owner, domain, people } = await campaignProject('audiences');
    const segment = await stack.api.post('/segments', {
      ...sk,
      body: {
        name: `Pro ${Date.now()}`,
        filters: {
          operator: 'AND',
          conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }],
        },
      },
    });
    expect(segment.status, segment.text).toBe(201);

    const all = await createCampaign(stack.api, sk, {
      name: 'All',
      ...content(domain),
      subject: 'All {{ plan }}',
      audienceType: 'ALL',
    });
    const bySegment = await createCampaign(stack.api, sk, {
      name: 'Segment',
      ...content(domain),
      subject: 'Segment {{ plan }}',
      audienceType: 'SEGMENT',
      segmentId: segment.body.id,
    });
    const filtered = await createCampaign(stack.api, sk, {
      name: 'Filtered',
      ...content(domain),
      subject: 'Filtered {{ plan }}',
      audienceType: 'FILTERED',
      audienceFilter: {
        operator: 'AND',
        conditions: [{ field: 'data.plan', operator: 'equals', value: 'free' }],
      },
    });
    for (const c of [all, bySegment, filtered]) {
      const sent = await stack.api.post(`/campaigns/${c.id}/send`, sk);
      expect(sent.status, sent.text).toBe(200);
      expect(sent.body.data.status).toBe('SENDING');
    }
    for (const c of [all, bySegment, filtered]) await settle(sk, c.id);
    await keepHistory('campaign-send.sent', `campaign-${all.id}`);

    const subjects = (address: string) =>
      stack.smtp.messages
        .filter((m) => m.to.includes(address))
        .map((m) => m.parsed.subject)
        .sort();
    expect(subjects(people.pro1)).toEqual(['All pro', 'Segment pro']);
    expect(subjects(people.pro2)).toEqual(['All pro', 'Segment pro']);
    expect(subjects(people.free1)).toEqual(['All free', 'Filtered free']);
    expect(received(people.proGone)).toBe(0);

    expect(await campaignStats(stack.api, sk, all.id)).toMatchObject({
      recipients: 4,
      sent: 3,
      skipped: 1,
      failed: 0,
      cancelled: 0,
      pending: 0,
      queued: 0,
    });
    expect(await campaignStats(stack.api, sk, bySegment.id)).toMatchObject({
      recipients: 3,
      sent: 2,
      skipped: 1,
    });
    expect(await campaignStats(stack.api, sk, filtered.id)).toMatchObject({
      recipients: 1,
      sent: 1,
      skipped: 0,
    });

    // The marketing message carries DKIM-signed one-click unsubscribe headers.
    const mail = stack.smtp.messages.find((m) =>
      m.to.includes(people.free1),
    ) as (typeof stack.smtp.messages)[number];
    const header = (name: string) =>
      mail.parsed.headers.find((h) => h.key === name.toLowerCase())?.value;
    expect(header('List-Unsubscribe')).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/unsubscribe\/.+>$/);
    expect(header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const resolver = new Resolver();
    resolver.setServers([dns.address]);
    const dkim = await dkimVerify(mail.raw, {
      resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
    });
    expect(dkim.results[0]?.status.result).toBe('pass');
    const signed =
      /\bh=([^;]+)/.exec(header('DKIM-Signature') ?? '')?.[1]?.replace(/\s+/g, '') ?? '';
    expect(signed.toLowerCase().split(':')).toEqual(
      expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post']),
    );

    // Sent campaigns: PUT, a second send and DELETE... PUT and send are 409.
    const put = await stack.api.put(`/campaigns/${all.id}`, {
      ...sk,
      body: { name: 'Again', ...content(domain), audienceType: 'ALL' },
    });
    expect(put.status, put.text).toBe(409);
    expect((await stack.api.post(`/campaigns/${all.id}/send`, sk)).status).toBe(409);
    expect((await stack.api.post(`/campaigns/${all.id}/cancel`, sk)).status).toBe(409);

    // Opens and clicks are counted once per email, from the rows.
    const tracked = stack.smtp.messages.find(
      (m) => m.to.includes(people.pro1) && m.parsed.subject === 'All pro',
    );
    const pixel = /src="(http:\/\/127\.0\.0\.1:\d+\/t\/o\/[^"]+)"/.exec(
      tracked?.parsed.html ?? '',
    )?.[1];
    const link = /href="(http:\/\/127\.0\.0\.1:\d+\/t\/c\/[^"]+)"/.exec(
      tracked?.parsed.html ?? '',
    )?.[1];
    expect(pixel && link).toBeTruthy();
    for (let i = 0; i < 2; i += 1) {
      await fetch(pixel as string);
      await fetch(link as string, { redirect: 'manual' });
    }
    expect(await campaignStats(stack.api, sk, all.id)).toMatchObject({
      opened: 1,
      clicked: 1,
      openRate: 0.3333,
      clickRate: 0.3333,
    });

    // A deleted campaign's recipient rows go with it (a trigger, not a per-row foreign key),
    // and no other campaign's; a project's reset takes every campaign's.
    const recipientRows = (campaignId: string) =>
      withDatabase(async (db) => {
        const { rows } = await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM campaign_recipients WHERE campaign_id = $1',
          [campaignId],
        );
        return rows[0]?.n;
      });
    expect(await recipientRows(all.id)).toBe(4);
    expect((await stack.api.delete(`/campaigns/${all.id}`, sk)).status).toBe(200);
    expect(await recipientRows(all.id)).toBe(0);
    expect(await recipientRows(bySegment.id)).toBe(3);
    const reset = await stack.api.post(`/users/@me/projects/${project.id}/reset`, {
      cookie: owner.cookie,
    });
    expect(reset.status, reset.text).toBe(200);
    expect(await recipientRows(bySegment.id)).toBe(0);
    expect(await recipientRows(filtered.id)).toBe(0);
  });

  it('sends a test email: [TEST] subject, no tracking, not counted (from a subdomain)', async () => {
    const { sk, domain } = await campaignProject('test-send');
    // A subdomain of a verified domain sends on it, as for /v1/send.
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Test me',
      ...content(domain),
      from: `news@mail.${domain}`,
      audienceType: 'ALL',
    });
    const to = `tester-${Date.now()}@example.com`;
    const res = await stack.api.post(`/campaigns/${campaign.id}/test`, {
      ...sk,
      body: { email: to },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ email: to, status: 'QUEUED' });
    const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
    expect(mail.parsed.subject).toBe('[TEST] News for you');
    expect(mail.parsed.from?.address).toBe(`news@mail.${domain}`);
    expect(mail.parsed.html).toContain('href="https://example.com/offer"');
    expect(mail.parsed.html).not.toContain('/t/o/');
    expect(await campaignStats(stack.api, sk, campaign.id)).toMatchObject({
      recipients: 0,
      sent: 0,
    });
    expect((await stack.api.get(`/campaigns/${campaign.id}`, sk)).body.data.status).toBe('DRAFT');
    const bad = await stack.api.post(`/campaigns/${campaign.id}/test`, {
      ...sk,
      body: { email: 'nope' },
    });
    expect(bad.status).toBe(422);
  });

  it('schedules: a past time is 422; SCHEDULED cannot be deleted or changed; cancelled, it never sends', async () => {
    const { sk, domain, people } = await campaignProject('schedule');
    const segment = await stack.api.post('/segments', {
      ...sk,
      body: {
        name: `Free ${Date.now()}`,
        filters: {
          operator: 'AND',
          conditions: [{ field: 'data.plan', operator: 'equals', value: 'free' }],
        },
      },
    });
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Later',
      ...content(domain),
      subject: 'Later',
      audienceType: 'SEGMENT',
      segmentId: segment.body.id,
    });
    const past = await stack.api.post(`/campaigns/${campaign.id}/send`, {
      ...sk,
      body: { scheduledFor: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.status, past.text).toBe(422);
    const invalid = await stack.api.post(`/campaigns/${campaign.id}/send`, {
      ...sk,
      body: { scheduledFor: 'tomorrow' },
    });
    expect(invalid.status, invalid.text).toBe(422);

    const at = new Date(Date.now() + 3000);
    const scheduled = await stack.api.post(`/campaigns/${campaign.id}/send`, {
      ...sk,
      body: { scheduledFor: at.toISOString() },
    });
    expect(scheduled.status, scheduled.text).toBe(200);
    expect(scheduled.body.data).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: at.toISOString(),
    });
    expect((await stack.api.post(`/campaigns/${campaign.id}/send`, sk)).status).toBe(409);
    expect((await stack.api.delete(`/campaigns/${campaign.id}`, sk)).status).toBe(409);
    const segmentDelete = await stack.api.delete(`/segments/${segment.body.id}`, sk);
    expect(segmentDelete.status, segmentDelete.text).toBe(409);
    const usage = await stack.api.get(`/segments/${segment.body.id}/usage`, sk);
    expect(usage.body.campaigns).toEqual([{ id: campaign.id, name: 'Later', status: 'SCHEDULED' }]);

    const cancelled = await stack.api.post(`/campaigns/${campaign.id}/cancel`, sk);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data.status).toBe('CANCELLED');
    await new Promise((r) => setTimeout(r, Math.max(0, at.getTime() - Date.now()) + 2000));
    expect(received(people.free1)).toBe(0);
    expect((await stack.api.get(`/campaigns/${campaign.id}`, sk)).body.data.status).toBe(
      'CANCELLED',
    );
    expect(await campaignStats(stack.api, sk, campaign.id)).toMatchObject({
      recipients: 0,
      sent: 0,
    });
    await keepHistory('campaign-send.cancelled-while-scheduled', `campaign-${campaign.id}`);
    expect((await stack.api.delete(`/campaigns/${campaign.id}`, sk)).status).toBe(200);
  });

  it('sends a scheduled campaign once, after its time', async () => {
    const { sk, domain, people } = await campaignProject('scheduled-send');
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Soon',
      ...content(domain),
      subject: 'Soon',
      audienceType: 'FILTERED',
      audienceFilter: {
        operator: 'AND',
        conditions: [{ field: 'email', operator: 'equals', value: people.pro1 }],
      },
    });
    const at = new Date(Date.now() + 2000);
    const res = await stack.api.post(`/campaigns/${campaign.id}/send`, {
      ...sk,
      body: { scheduledFor: at.toISOString() },
    });
    expect(res.status, res.text).toBe(200);
    const mail = await stack.smtp.waitFor((m) => m.to.includes(people.pro1));
    expect(mail.receivedAt.getTime()).toBeGreaterThanOrEqual(at.getTime());
    await settle(sk, campaign.id);
    expect(received(people.pro1)).toBe(1);
  });

  it('lists campaigns in template, field and event usage', async () => {
    const { sk, domain } = await campaignProject('usage');
    const template = await stack.api.post('/templates', {
      ...sk,
      body: {
        name: 'T',
        subject: 'From template',
        body: '<p>T</p>',
        type: 'MARKETING',
        from: `t@${domain}`,
      },
    });
    expect(template.status, template.text).toBe(201);
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Uses all',
      templateId: template.body.id,
      audienceType: 'FILTERED',
      audienceFilter: {
        operator: 'AND',
        conditions: [
          { field: 'data.tier', operator: 'exists' },
          { field: 'event.purchase', operator: 'triggered' },
        ],
      },
    });
    expect(campaign).toMatchObject({ subject: 'From template', from: `t@${domain}` });
    const entry = { id: campaign.id, name: 'Uses all', status: 'DRAFT' };
    expect(
      (await stack.api.get(`/templates/${template.body.id}/usage`, sk)).body.campaigns,
    ).toEqual([entry]);
    expect((await stack.api.get('/contacts/fields/tier/usage', sk)).body.campaigns).toEqual([
      entry,
    ]);
    expect((await stack.api.get('/events/purchase/usage', sk)).body.campaigns).toEqual([entry]);
  });
});

/** Of a campaign's emails: how many were queued before its snapshot was complete, and in all. */
const queuedBeforeSnapshot = (campaignId: string) =>
  withDatabase(async (db) => {
    const { rows } = await db.query<{ early: number; total: number }>(
      `SELECT count(*) FILTER (WHERE e.created_at < c.snapshot_at)::int AS early,
              count(*)::int AS total
         FROM campaigns c JOIN emails e ON e.campaign_id = c.id WHERE c.id = $1`,
      [campaignId],
    );
    return rows[0];
  });

describe('the first emails of a send', () => {
  // Small enough for the default send rate (50/s a project); the 5,004-recipient send below
  // (cancelled) has its audience frozen in both parts.
  const SIZE = 120;
  it(`are queued before the rest of the audience is frozen, unless a cap is charged; all ${SIZE} mailed once`, async () => {
    const { sk, project } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('large'));
    const tag = `large-${Date.now()}`;
    const addresses = Array.from({ length: SIZE }, (_, i) => `r${i}-${tag}@example.com`);
    await importContacts(
      stack.api,
      sk,
      addresses.map((email) => ({ email })),
    );
    const sendTo = async (subject: string) => {
      const campaign = await createCampaign(stack.api, sk, {
        name: subject,
        ...content(domain),
        subject,
        audienceType: 'ALL',
      });
      const sent = await stack.api.post(`/campaigns/${campaign.id}/send`, sk);
      expect(sent.status, sent.text).toBe(200);
      await settle(sk, campaign.id);
      expect(await campaignStats(stack.api, sk, campaign.id)).toMatchObject({
        recipients: SIZE,
        sent: SIZE,
      });
      const got = stack.smtp.messages.filter((m) => m.parsed.subject === subject);
      expect(new Set(got.flatMap((m) => m.to)).size).toBe(SIZE);
      expect(got).toHaveLength(SIZE);
      return queuedBeforeSnapshot(campaign.id);
    };

    // No cap to charge: a first batch (at most 50) goes to the lanes while the rest is frozen.
    const uncapped = await sendTo(`Uncapped ${tag}`);
    expect(uncapped?.total).toBe(SIZE);
    expect(uncapped?.early).toBeGreaterThan(0);
    expect(uncapped?.early).toBeLessThanOrEqual(50);

    // A cap is charged in the snapshot's one transaction: nothing is queued before it commits.
    const cap = await stack.api.put(billing(project.id, 'billing-limits'), {
      ...sk,
      body: { campaigns: 10 * SIZE },
    });
    expect(cap.status, cap.text).toBe(200);
    const capped = await sendTo(`Capped ${tag}`);
    expect(capped).toEqual({ early: 0, total: SIZE });
  });
});

describe('cancelling a campaign while it sends', () => {
  it('stops a 5,000-recipient send: CANCELLED, the SMTP count stops growing, every recipient accounted for', async () => {
    const { sk, domain } = await campaignProject('cancel');
    const tag = `bulk-${Date.now()}`;
    await importContacts(
      stack.api,
      sk,
      Array.from({ length: 5000 }, (_, i) => ({ email: `c${i}-${tag}@example.com`, plan: 'bulk' })),
    );
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Big',
      ...content(domain),
      subject: `Big ${tag}`,
      audienceType: 'ALL',
    });
    const mine = () => stack.smtp.messages.filter((m) => m.parsed.subject === `Big ${tag}`).length;
    stack.smtp.setResponder(async () => {
      await new Promise((r) => setTimeout(r, 5));
    });
    try {
      expect((await stack.api.post(`/campaigns/${campaign.id}/send`, sk)).status).toBe(200);
      await eventually(() => mine() >= 200, {
        what: '200 messages delivered',
        timeoutMs: 120_000,
        intervalMs: 20,
        describe: () => `${mine()} delivered`,
      });
      const res = await stack.api.post(`/campaigns/${campaign.id}/cancel`, sk);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.status).toBe('CANCELLED');
      // In-flight messages may still land; then the count holds still.
      let last = -1;
      await eventually(
        () => {
          const now = mine();
          const still = now === last;
          last = now;
          return still;
        },
        {
          what: 'the SMTP count to hold still',
          timeoutMs: 120_000,
          intervalMs: 1500,
          describe: () => `${last} delivered`,
        },
      );
    } finally {
      stack.smtp.setResponder(undefined);
    }
    const stats = await campaignStats(stack.api, sk, campaign.id);
    expect(stats.recipients).toBe(5004);
    expect(stats.sent).toBe(mine());
    expect(stats.sent).toBeLessThan(5003);
    expect(stats.cancelled).toBeGreaterThan(0);
    expect(stats.sent + stats.cancelled + stats.skipped + stats.failed).toBe(stats.recipients);
    expect(stats.queued).toBe(0);
    expect((await stack.api.get(`/campaigns/${campaign.id}`, sk)).body.data.status).toBe(
      'CANCELLED',
    );
    await keepHistory('campaign-send.cancelled-while-sending', `campaign-${campaign.id}`);
  });
});
