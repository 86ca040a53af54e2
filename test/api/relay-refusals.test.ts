import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { eventually } from '../helpers/eventually.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

// What a relay's own permanent answer does (issue 30): an address the relay says does not exist
// (5.1.x, 5.2.1) is a hard bounce, counted and suppressed with the relay's words kept; any
// other permanent refusal fails that email and suppresses nobody.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

async function sender() {
  const fixture = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain('relay'));
  return { ...fixture, domain };
}

const emailRow = (id: string) =>
  withDatabase(
    async (db) =>
      (
        await db.query<{ status: string; error: string | null }>(
          'SELECT status, error FROM emails WHERE id = $1',
          [id],
        )
      ).rows[0],
  );

const suppressionOf = (projectId: string, email: string) =>
  withDatabase(
    async (db) =>
      (
        await db.query<{ reason: string }>(
          'SELECT reason FROM suppressions WHERE project_id = $1 AND email = $2',
          [projectId, email],
        )
      ).rows[0],
  );

type Sender = Awaited<ReturnType<typeof sender>>;

/** A subscribed contact at `to` (so that unsubscribing it shows), then a /v1/send to it. */
async function sendToSubscribed({ sk, domain }: Sender, to: string, subject: string) {
  const made = await stack.api.post('/contacts', { ...sk, body: { email: to, subscribed: true } });
  expect(made.status, made.text).toBe(201);
  const res = await stack.api.post('/v1/send', {
    ...sk,
    body: { to, subject, body: '<p>b</p>', from: `a@${domain}` },
  });
  expect(res.status, res.text).toBe(200);
  return {
    emailId: res.body.data.emails[0].email as string,
    contact: res.body.data.emails[0].contact.id as string,
  };
}

/** The email FAILED with `error` matched, its contact neither suppressed nor unsubscribed. */
async function expectFailedOnly(
  { project, sk }: Sender,
  sent: { to: string; emailId: string; contact: string; error: RegExp | string },
) {
  await eventually(async () => (await emailRow(sent.emailId))?.status === 'FAILED', {
    what: `${sent.to} to fail`,
  });
  const { error } = (await emailRow(sent.emailId)) ?? {};
  if (typeof sent.error === 'string') expect(error).toContain(sent.error);
  else expect(error).toMatch(sent.error);
  expect(await suppressionOf(project.id, sent.to)).toBeUndefined();
  const events = (await stack.api.get(`/events/contact/${sent.contact}`, sk)).body.data as {
    name: string;
  }[];
  expect(events.map((e) => e.name)).toContain('email.failed');
  expect(events.map((e) => e.name)).not.toContain('email.bounced');
  expect((await stack.api.get(`/contacts/${sent.contact}`, sk)).body.subscribed).toBe(true);
}

describe('a relay refusing an address', () => {
  it('answers 5.1.1 and 5.2.1 with hard bounces: BOUNCED, suppressed, unsubscribed, evidence kept', async () => {
    const from = await sender();
    const { project, sk, domain } = from;
    const refusals = new Map([
      [
        uniqueEmail('unknown'),
        { code: 550, text: '5.1.1 <x>: Recipient address rejected: User unknown' },
      ],
      [
        uniqueEmail('disabled'),
        { code: 550, text: '5.2.1 Mailbox disabled, not accepting messages' },
      ],
    ]);
    stack.smtp.setResponder((message) => {
      for (const [to, answer] of refusals) {
        if (message.to.includes(to)) {
          throw Object.assign(new Error(answer.text), { responseCode: answer.code });
        }
      }
    });
    try {
      for (const [to, answer] of refusals) {
        const { emailId, contact } = await sendToSubscribed(from, to, 'Dead address');
        await eventually(async () => (await emailRow(emailId))?.status === 'BOUNCED', {
          what: `${to} to bounce`,
        });
        expect(await suppressionOf(project.id, to)).toEqual({ reason: 'hard_bounce' });
        const events = (await stack.api.get(`/events/contact/${contact}`, sk)).body.data as {
          name: string;
          data: Record<string, unknown>;
        }[];
        const bounced = events.filter((e) => e.name === 'email.bounced');
        expect(bounced).toHaveLength(1);
        expect(bounced[0]?.data).toMatchObject({
          emailId,
          bounceType: 'hard',
          source: 'relay',
          code: answer.code,
          status: answer.text.slice(0, 5),
        });
        expect(String(bounced[0]?.data.diagnostic)).toContain(answer.text);
        expect(events.some((e) => e.name === 'email.sent')).toBe(false);
        const got = (await stack.api.get(`/contacts/${contact}`, sk)).body;
        expect(got.subscribed).toBe(false);
        // The next send to it is suppressed before it reaches the relay.
        const again = await stack.api.post('/v1/send', {
          ...sk,
          body: { to, subject: 'Again', body: '<p>b</p>', from: `a@${domain}` },
        });
        expect(again.body.data.emails[0].status).toBe('SUPPRESSED');
      }
      // The project's bounce rate sees them.
      const security = await stack.api.get(`/projects/${project.id}/security`, sk);
      expect(security.status, security.text).toBe(200);
      const view = security.body.data ?? security.body;
      expect(view).toMatchObject({ bounced: 2 });
      expect(view.bounceRate).toBeGreaterThan(0);
    } finally {
      stack.smtp.setResponder(undefined);
    }
  });

  it('fails other permanent refusals (552, 554 5.7.1) with the reason and suppresses nobody', async () => {
    const from = await sender();
    const refusals = new Map([
      [uniqueEmail('full'), { code: 552, text: 'Requested mail action aborted: exceeded storage' }],
      [uniqueEmail('policy'), { code: 554, text: '5.7.1 Message rejected under policy' }],
    ]);
    stack.smtp.setResponder((message) => {
      for (const [to, answer] of refusals) {
        if (message.to.includes(to)) {
          throw Object.assign(new Error(answer.text), { responseCode: answer.code });
        }
      }
    });
    try {
      for (const [to, answer] of refusals) {
        const sent = await sendToSubscribed(from, to, 'Refused');
        await expectFailedOnly(from, { to, ...sent, error: answer.text });
      }
    } finally {
      stack.smtp.setResponder(undefined);
    }
  });

  it('fails, and bounces nobody, when the relay refuses the sender with a 5.1.x', async () => {
    const from = await sender();
    const to = uniqueEmail('innocent');
    stack.smtp.setSenderResponder((address) => {
      if (!address.includes(from.domain)) return;
      const refusal = new Error('5.1.8 <sender>: Sender address rejected: Domain not found');
      throw Object.assign(refusal, { responseCode: 553 });
    });
    try {
      const sent = await sendToSubscribed(from, to, 'Refused sender');
      await expectFailedOnly(from, { to, ...sent, error: /^Sender refused: 553 5\.1\.8 / });
    } finally {
      stack.smtp.setSenderResponder(undefined);
    }
  });
});
