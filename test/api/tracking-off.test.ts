import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignStats, createCampaign, waitForCampaign } from '../helpers/campaigns.js';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { CapturedEmail } from '../helpers/smtp-capture.js';
import type { TestStack } from '../helpers/stack.js';
import { buildWorkflow, track } from '../helpers/workflows.js';

// Open and click tracking each on or off per project, campaign, template and /v1/send call; the
// most specific setting given wins, and each email keeps what it was queued with.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

type Sk = { key: string };
type Tracking = { opens: boolean; clicks: boolean };

const ORIGINAL = 'https://shop.example.com/sale?x=1&y=2';
const BODY = `<html><body><p>Hi</p><a href="${ORIGINAL.replace('&', '&amp;')}">Sale</a></body></html>`;

/** A project with a verified domain, its owner and its secret key. */
async function sendingProject(label: string) {
  const fixture = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain(label));
  return { ...fixture, domain, from: `news@${domain}` };
}
type Project = Awaited<ReturnType<typeof sendingProject>>;

/**
 * What a received email tracks, read from its HTML: the open pixel, and the link rewritten to
 * the click redirect. Untracked means exactly the original: no pixel, the link as written.
 */
function trackingOf(mail: CapturedEmail): Tracking {
  const html = mail.parsed.html ?? '';
  const link = (/<a href="([^"]+)"/.exec(html)?.[1] ?? '').replace(/&amp;/g, '&');
  const opens = html.includes('/t/o/');
  if (!opens) expect(html).not.toContain('<img');
  const clicks = link.startsWith(`${stack.api.baseUrl}/t/c/`);
  if (!clicks) {
    expect(link).toBe(ORIGINAL);
    expect(mail.parsed.text).toContain(ORIGINAL);
  }
  return { opens, clicks };
}

/** What GET /emails/:id says the email was queued with. */
async function storedTracking(sk: Sk, emailId: string): Promise<Tracking> {
  const res = await stack.api.get(`/emails/${emailId}`, sk);
  expect(res.status, res.text).toBe(200);
  return res.body.tracking;
}

/** Sends one email through /v1/send and answers what it tracked, as received and as stored. */
async function sendAndRead(
  p: Project,
  body: Record<string, unknown>,
): Promise<{ received: Tracking; stored: Tracking }> {
  const to = uniqueEmail('reader');
  const content = body.template ? {} : { subject: 'Sale', body: BODY, from: p.from };
  const res = await stack.api.post('/v1/send', { ...p.sk, body: { to, ...content, ...body } });
  expect(res.status, res.text).toBe(200);
  const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
  return {
    received: trackingOf(mail),
    stored: await storedTracking(p.sk, res.body.data.emails[0].email),
  };
}

/** The tracking `sendAndRead` should see both in the message and on the row. */
const both = (t: Tracking) => ({ received: t, stored: t });

async function patchProjectTracking(p: Project, tracking: unknown) {
  return stack.api.patch(`/users/@me/projects/${p.project.id}`, {
    cookie: p.owner.cookie,
    body: { settings: { tracking } },
  });
}

async function createTemplate(p: Project, tracking?: unknown): Promise<Record<string, any>> {
  const res = await stack.api.post('/templates', {
    ...p.sk,
    body: {
      name: 'Sale',
      subject: 'Sale',
      body: BODY,
      from: p.from,
      type: 'TRANSACTIONAL',
      ...(tracking === undefined ? {} : { tracking }),
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const emailCount = (projectId: string): Promise<number> =>
  withDatabase(
    async (db) =>
      (await db.query('SELECT count(*)::int AS n FROM emails WHERE project_id = $1', [projectId]))
        .rows[0].n,
  );

describe('tracking on /v1/send', () => {
  it('tracks opens and clicks by default; a send turns each off: no pixel, the original links', async () => {
    const p = await sendingProject('send');
    expect(await sendAndRead(p, {})).toEqual(both({ opens: true, clicks: true }));
    expect(await sendAndRead(p, { tracking: { opens: false, clicks: false } })).toEqual(
      both({ opens: false, clicks: false }),
    );
    expect(await sendAndRead(p, { tracking: { opens: false } })).toEqual(
      both({ opens: false, clicks: true }),
    );
    expect(await sendAndRead(p, { tracking: { clicks: false } })).toEqual(
      both({ opens: true, clicks: false }),
    );
    expect(await sendAndRead(p, { tracking: {} })).toEqual(both({ opens: true, clicks: true }));
  });

  it('refuses bad tracking values (422 in the envelope) and writes nothing', async () => {
    const p = await sendingProject('bad-send');
    const before = await emailCount(p.project.id);
    for (const tracking of [
      { opens: 'no' },
      { clicks: 0 },
      { opens: null },
      { open: false },
      false,
      null,
      'off',
    ]) {
      const to = uniqueEmail('refused');
      const res = await stack.api.post('/v1/send', {
        ...p.sk,
        body: { to, subject: 'S', body: BODY, from: p.from, tracking },
      });
      expect(res.status, `${JSON.stringify(tracking)}: ${res.text}`).toBe(422);
      expect(res.body).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_ERROR', statusCode: 422 },
      });
      expect(
        res.body.error.errors.some((e: { field: string }) => e.field.startsWith('tracking')),
        res.text,
      ).toBe(true);
    }
    expect(await emailCount(p.project.id)).toBe(before);
  });
});

describe('tracking set by the project', () => {
  it('turns opens and clicks off each on its own; a send still turns them back on', async () => {
    const p = await sendingProject('project');
    const off = await patchProjectTracking(p, { opens: false });
    expect(off.status, off.text).toBe(200);
    expect(off.body.settings).toEqual({ tracking: { opens: false, clicks: true } });
    expect(await sendAndRead(p, {})).toEqual(both({ opens: false, clicks: true }));

    // A change names only what it changes.
    const both_off = await patchProjectTracking(p, { clicks: false });
    expect(both_off.body.settings).toEqual({ tracking: { opens: false, clicks: false } });
    const listed = await stack.api.get('/users/@me/projects', { cookie: p.owner.cookie });
    expect(
      listed.body.find((x: { id: string }) => x.id === p.project.id).settings.tracking,
    ).toEqual({ opens: false, clicks: false });
    expect(await sendAndRead(p, {})).toEqual(both({ opens: false, clicks: false }));
    expect(await sendAndRead(p, { tracking: { opens: true } })).toEqual(
      both({ opens: true, clicks: false }),
    );
    expect(await sendAndRead(p, { tracking: { opens: true, clicks: true } })).toEqual(
      both({ opens: true, clicks: true }),
    );
  });

  it('refuses bad settings (422) and keeps the ones it had', async () => {
    const p = await sendingProject('bad-project');
    await patchProjectTracking(p, { clicks: false });
    for (const tracking of [{ opens: null }, { opens: 'yes' }, { clicks: 1 }, { all: false }, []]) {
      const res = await patchProjectTracking(p, tracking);
      expect(res.status, `${JSON.stringify(tracking)}: ${res.text}`).toBe(422);
      expect(res.body.error.statusCode).toBe(422);
      expect(res.body.error.errors[0].field).toMatch(/^settings\.tracking/);
    }
    const listed = await stack.api.get('/users/@me/projects', { cookie: p.owner.cookie });
    expect(
      listed.body.find((x: { id: string }) => x.id === p.project.id).settings.tracking,
    ).toEqual({ opens: true, clicks: false });
  });

  it('keeps the choice an email was queued with, when it is delivered after the setting changed', async () => {
    const p = await sendingProject('queued');
    await stack.stopWorker('SIGTERM');
    let emailId: string;
    const to = uniqueEmail('later');
    try {
      const res = await stack.api.post('/v1/send', {
        ...p.sk,
        body: { to, subject: 'Later', body: BODY, from: p.from },
      });
      expect(res.status, res.text).toBe(200);
      emailId = res.body.data.emails[0].email;
      expect((await patchProjectTracking(p, { opens: false, clicks: false })).status).toBe(200);
    } finally {
      await stack.startWorker();
    }
    const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
    expect(trackingOf(mail)).toEqual({ opens: true, clicks: true });
    expect(await storedTracking(p.sk, emailId)).toEqual({ opens: true, clicks: true });
    // Queued from now on, the project's new setting holds.
    expect(await sendAndRead(p, {})).toEqual(both({ opens: false, clicks: false }));
  });
});

describe('tracking set by a template', () => {
  it("comes under the send's setting and over the project's; PATCH changes only what it names", async () => {
    const p = await sendingProject('template');
    await patchProjectTracking(p, { opens: false });
    const noClicks = await createTemplate(p, { clicks: false });
    expect(noClicks.tracking).toEqual({ opens: null, clicks: false });
    expect((await createTemplate(p)).tracking).toEqual({ opens: null, clicks: null });

    // opens: the project's (off); clicks: the template's (off).
    expect(await sendAndRead(p, { template: noClicks.id })).toEqual(
      both({ opens: false, clicks: false }),
    );
    // The send's own setting wins over the template's.
    expect(await sendAndRead(p, { template: noClicks.id, tracking: { clicks: true } })).toEqual(
      both({ opens: false, clicks: true }),
    );
    // The template's wins over the project's.
    const opens = await createTemplate(p, { opens: true });
    expect(await sendAndRead(p, { templateId: opens.id })).toEqual(
      both({ opens: true, clicks: true }),
    );

    const patched = await stack.api.patch(`/templates/${noClicks.id}`, {
      ...p.sk,
      body: { tracking: { opens: true } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.tracking).toEqual({ opens: true, clicks: false });
    const handedBack = await stack.api.patch(`/templates/${noClicks.id}`, {
      ...p.sk,
      body: { tracking: { clicks: null } },
    });
    expect(handedBack.body.tracking).toEqual({ opens: true, clicks: null });
    expect(
      (await stack.api.patch(`/templates/${noClicks.id}`, { ...p.sk, body: { name: 'Renamed' } }))
        .body.tracking,
    ).toEqual({ opens: true, clicks: null });
    const copy = await stack.api.post(`/templates/${noClicks.id}/duplicate`, p.sk);
    expect(copy.body.tracking).toEqual({ opens: true, clicks: null });
  });

  it("decides a workflow step's email, with the project's setting", async () => {
    const p = await sendingProject('workflow');
    await patchProjectTracking(p, { clicks: false });
    const template = await createTemplate(p, { opens: false });
    await buildWorkflow(stack.api, p.sk, {
      triggerEvent: 'signup',
      steps: { send: { type: 'SEND_EMAIL', config: { templateId: template.id } } },
    });
    const email = uniqueEmail('signup').toLowerCase();
    await track(stack.api, p.sk, email, 'signup');
    const mail = await stack.smtp.waitFor((m) => m.to.includes(email));
    expect(trackingOf(mail)).toEqual({ opens: false, clicks: false });
  });

  it('refuses bad values (422) and changes nothing', async () => {
    const p = await sendingProject('bad-template');
    const template = await createTemplate(p, { opens: false });
    for (const tracking of [{ opens: 'off' }, { clicks: 2 }, { track: true }, true]) {
      const created = await stack.api.post('/templates', {
        ...p.sk,
        body: { name: 'Bad', subject: 'S', body: BODY, from: p.from, tracking },
      });
      expect(created.status, created.text).toBe(422);
      expect(created.body.error.errors[0].field).toMatch(/^tracking/);
      const patched = await stack.api.patch(`/templates/${template.id}`, {
        ...p.sk,
        body: { tracking },
      });
      expect(patched.status, patched.text).toBe(422);
    }
    const list = await stack.api.get('/templates', p.sk);
    expect(list.body.templates).toHaveLength(1);
    expect(list.body.templates[0].tracking).toEqual({ opens: false, clicks: null });
  });
});

describe('tracking set by a campaign', () => {
  /** A project with two subscribed contacts and a verified domain. */
  async function campaignProject(label: string) {
    const p = await sendingProject(label);
    const people = [uniqueEmail(`${label}-a`), uniqueEmail(`${label}-b`)];
    for (const email of people) {
      const res = await stack.api.post('/contacts', { ...p.sk, body: { email, subscribed: true } });
      expect(res.status, res.text).toBe(201);
    }
    return { ...p, people };
  }

  /** Sends the campaign, waits for it, and answers what each recipient's email tracked. */
  async function sendCampaign(
    p: Awaited<ReturnType<typeof campaignProject>>,
    body: Record<string, unknown>,
  ) {
    const subject = `Campaign ${Math.random().toString(36).slice(2, 8)}`;
    const campaign = await createCampaign(stack.api, p.sk, {
      name: subject,
      subject,
      audienceType: 'ALL',
      ...body,
    });
    const sent = await stack.api.post(`/campaigns/${campaign.id}/send`, p.sk);
    expect(sent.status, sent.text).toBe(200);
    expect((await waitForCampaign(stack.api, p.sk, campaign.id)).status).toBe('SENT');
    const received = await Promise.all(
      p.people.map((to) =>
        stack.smtp.waitFor((m) => m.to.includes(to) && m.parsed.subject === subject),
      ),
    );
    return { campaign, tracking: received.map(trackingOf) };
  }

  it('turns tracking off for its emails, and its stats say "not tracked" (null), not 0 %', async () => {
    const p = await campaignProject('campaign');
    const off = await sendCampaign(p, {
      body: BODY,
      from: p.from,
      tracking: { opens: false, clicks: false },
    });
    expect(off.campaign.tracking).toEqual({ opens: false, clicks: false });
    expect(off.tracking).toEqual([
      { opens: false, clicks: false },
      { opens: false, clicks: false },
    ]);
    expect(await campaignStats(stack.api, p.sk, off.campaign.id)).toMatchObject({
      sent: 2,
      opened: 0,
      clicked: 0,
      openRate: null,
      clickRate: null,
      bounceRate: 0,
    });

    const tracked = await sendCampaign(p, { body: BODY, from: p.from });
    expect(tracked.campaign.tracking).toEqual({ opens: null, clicks: null });
    expect(tracked.tracking).toEqual([
      { opens: true, clicks: true },
      { opens: true, clicks: true },
    ]);
    expect(await campaignStats(stack.api, p.sk, tracked.campaign.id)).toMatchObject({
      sent: 2,
      openRate: 0,
      clickRate: 0,
    });

    // The insights say it too: null rates, ranked after the tracked campaign.
    const breakdown = await stack.api.get('/analytics/campaign-stats', p.sk);
    expect(breakdown.status, breakdown.text).toBe(200);
    const byId = new Map(breakdown.body.campaigns.map((c: { id: string }) => [c.id, c] as const));
    expect(byId.get(off.campaign.id)).toMatchObject({ openRate: null, clickRate: null });
    expect(byId.get(tracked.campaign.id)).toMatchObject({ openRate: 0, clickRate: 0 });
    const top = await stack.api.get('/analytics/top-campaigns?metric=openRate', p.sk);
    expect(top.body.campaigns.map((c: { id: string }) => c.id)).toEqual([
      tracked.campaign.id,
      off.campaign.id,
    ]);
  });

  it("follows its template's setting unless it gives its own; the project's last", async () => {
    const p = await campaignProject('campaign-template');
    await patchProjectTracking(p, { opens: false });
    const template = await createTemplate(p, { clicks: false });
    // Neither the campaign nor the template says for opens: the project's (off).
    const fromTemplate = await sendCampaign(p, { templateId: template.id });
    expect(fromTemplate.tracking[0]).toEqual({ opens: false, clicks: false });
    const stats = await campaignStats(stack.api, p.sk, fromTemplate.campaign.id);
    expect(stats).toMatchObject({ openRate: null, clickRate: null });

    const own = await sendCampaign(p, {
      templateId: template.id,
      tracking: { opens: true, clicks: true },
    });
    expect(own.tracking[0]).toEqual({ opens: true, clicks: true });
    const mixed = await sendCampaign(p, { templateId: template.id, tracking: { opens: true } });
    expect(mixed.tracking[0]).toEqual({ opens: true, clicks: false });
    expect(await campaignStats(stack.api, p.sk, mixed.campaign.id)).toMatchObject({
      openRate: 0,
      clickRate: null,
    });
  });

  it('keeps its setting through PUT (replaced) and duplicate (copied); a test send tracks nothing', async () => {
    const p = await campaignProject('campaign-edit');
    const campaign = await createCampaign(stack.api, p.sk, {
      name: 'Edit',
      subject: 'Edit',
      body: BODY,
      from: p.from,
      audienceType: 'ALL',
      tracking: { clicks: false },
    });
    expect(campaign.tracking).toEqual({ opens: null, clicks: false });
    const copy = await stack.api.post(`/campaigns/${campaign.id}/duplicate`, p.sk);
    expect(copy.body.data.tracking).toEqual({ opens: null, clicks: false });
    const replaced = await stack.api.put(`/campaigns/${campaign.id}`, {
      ...p.sk,
      body: { name: 'Edit', subject: 'Edit', body: BODY, from: p.from, audienceType: 'ALL' },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.data.tracking).toEqual({ opens: null, clicks: null });

    for (const tracking of [{ opens: 'no' }, { clicks: [] }, { pixel: false }]) {
      const bad = await stack.api.put(`/campaigns/${campaign.id}`, {
        ...p.sk,
        body: {
          name: 'Bad',
          subject: 'Edit',
          body: BODY,
          from: p.from,
          audienceType: 'ALL',
          tracking,
        },
      });
      expect(bad.status, bad.text).toBe(422);
      expect(bad.body.error.errors[0].field).toMatch(/^tracking/);
    }
    const after = await stack.api.get(`/campaigns/${campaign.id}`, p.sk);
    expect(after.body.data).toMatchObject({
      name: 'Edit',
      tracking: { opens: null, clicks: null },
    });

    const test = await stack.api.post(`/campaigns/${campaign.id}/test`, {
      ...p.sk,
      body: { email: p.people[0] },
    });
    expect(test.status, test.text).toBe(200);
    const mail = await stack.smtp.waitFor(
      (m) => m.to.includes(p.people[0] as string) && m.parsed.subject === '[TEST] Edit',
    );
    expect(trackingOf(mail)).toEqual({ opens: false, clicks: false });
  });
});
