import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { eventually } from '../helpers/eventually.js';
import { uniqueEmail } from '../helpers/factories.js';
import { keepHistory } from '../helpers/histories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';
import { closedRunResult } from '../helpers/temporal-runs.js';

// What a relay's temporary answer does (issue 30): a 4xx keeps the email QUEUED and retried by
// its own send-email workflow; once the retries run out it is FAILED and counts as a soft bounce
// (the relay's code and words kept), which suppresses the address only when the bounce policy's
// count is reached. This file's worker retries for 10 s, at most 1 s apart, instead of a day.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack({
    EMAIL_RETRY_WINDOW: '10s',
    EMAIL_RETRY_MAX_INTERVAL: '1s',
  }));
});
afterAll(async () => {
  await stop?.();
});

const MAILBOX_FULL = { code: 452, text: '4.2.2 Mailbox full, try again later' };

async function sender() {
  const fixture = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain('relay4'));
  return { ...fixture, domain };
}

interface EmailState {
  status: string;
  error: string | null;
  retrying: boolean;
  soft_bounced: boolean;
}

const emailState = (id: string) =>
  withDatabase(
    async (db) =>
      (
        await db.query<EmailState>(
          `SELECT status, error, workflow_started_at IS NOT NULL AS retrying,
                  soft_bounced_at IS NOT NULL AS soft_bounced
             FROM emails WHERE id = $1`,
          [id],
        )
      ).rows[0],
  );

const suppressionOf = (projectId: string, email: string) =>
  withDatabase(
    async (db) =>
      (
        await db.query<{ reason: string; source: string | null; detail: unknown }>(
          'SELECT reason, source, detail FROM suppressions WHERE project_id = $1 AND email = $2',
          [projectId, email],
        )
      ).rows[0],
  );

/** The result of an email's send-email run, once the first refusal started it and it closed. */
async function retryResult(emailId: string): Promise<unknown> {
  await eventually(async () => (await emailState(emailId))?.retrying, {
    what: `email ${emailId} handed to its send-email workflow`,
  });
  return closedRunResult(`email-${emailId}`);
}

interface EventView {
  name: string;
  data: Record<string, unknown>;
}

describe('a relay refusing an address for now (452)', () => {
  it('retries while QUEUED, then fails it as a soft bounce with the evidence; three suppress', async () => {
    const { project, sk, domain } = await sender();
    const to = uniqueEmail('full');
    // What the email looked like at each attempt the relay saw, in order.
    const attempts: { emailId: string; state: EmailState | undefined }[] = [];
    // Emails whose later attempts the relay answers only after their retry window has closed,
    // so the window ends while an attempt is under way (no refusal comes with its timeout).
    const slowLater = new Set<string>();
    stack.smtp.setResponder(async (message) => {
      if (!message.to.includes(to)) return;
      const emailId = String(
        /^Message-ID:\s*<([0-9a-f-]{36})@/im.exec(message.raw.toString())?.[1],
      );
      attempts.push({ emailId, state: await emailState(emailId) });
      if (slowLater.has(emailId) && attempts.filter((a) => a.emailId === emailId).length > 2)
        await new Promise((resolve) => setTimeout(resolve, 12_000));
      throw Object.assign(new Error(MAILBOX_FULL.text), { responseCode: MAILBOX_FULL.code });
    });
    const send = async (subject: string): Promise<{ emailId: string; contact: string }> => {
      const res = await stack.api.post('/v1/send', {
        ...sk,
        body: { to, subject, body: '<p>b</p>', from: `a@${domain}` },
      });
      expect(res.status, res.text).toBe(200);
      return {
        emailId: res.body.data.emails[0].email,
        contact: res.body.data.emails[0].contact.id,
      };
    };
    try {
      // A subscribed contact, so that an unsubscribe would show.
      const made = await stack.api.post('/contacts', {
        ...sk,
        body: { email: to, subscribed: true },
      });
      expect(made.status, made.text).toBe(201);
      const { emailId: first, contact } = await send('Full 1');
      // Once its send-email run has closed, its retries have run out: then look.
      expect(await retryResult(first)).toBe('FAILED');
      await keepHistory('send-email.gave-up', `email-${first}`);

      const seen = attempts.filter((a) => a.emailId === first);
      // The lane's attempt, then the send-email workflow's retries.
      expect(seen.length).toBeGreaterThanOrEqual(3);
      expect(seen.map((a) => a.state?.status)).toEqual(seen.map(() => 'QUEUED'));
      expect(seen[0]?.state?.retrying).toBe(false);
      for (const later of seen.slice(1)) expect(later.state?.soft_bounced).toBe(false);
      // The workflow is started before the lane marks the email handed off, so its first
      // attempt may come first; the ones after a backoff find it marked, with the refusal.
      for (const later of seen.slice(2)) {
        expect(later.state?.retrying).toBe(true);
        expect(later.state?.error).toContain(`452 ${MAILBOX_FULL.text}`);
      }

      const gaveUp = await emailState(first);
      expect(gaveUp).toMatchObject({ status: 'FAILED', soft_bounced: true });
      expect(gaveUp?.error).toContain(`452 ${MAILBOX_FULL.text}`);
      const events = (await stack.api.get(`/events/contact/${contact}`, sk)).body
        .data as EventView[];
      const ofFirst = events.filter((e) => e.data.emailId === first);
      expect(ofFirst.map((e) => e.name).sort()).toEqual(['email.bounced', 'email.failed']);
      const bounced = ofFirst.find((e) => e.name === 'email.bounced');
      expect(bounced?.data).toMatchObject({
        bounceType: 'soft',
        source: 'relay',
        code: 452,
        status: '4.2.2',
      });
      expect(String(bounced?.data.diagnostic)).toContain(`452 ${MAILBOX_FULL.text}`);
      // One soft bounce of the default policy's 3 in 30 days: nobody suppressed or unsubscribed.
      expect(await suppressionOf(project.id, to)).toBeUndefined();
      expect((await stack.api.get(`/contacts/${contact}`, sk)).body.subscribed).toBe(true);

      // Two more emails to the address run out their retries too, the second while an attempt
      // is still waiting for the relay: its soft bounce keeps the last refusal all the same. The
      // third soft bounce suppresses the address, with the relay's evidence, and the contact
      // keeps its subscription.
      const second = await send('Full 2');
      const third = await send('Full 3');
      slowLater.add(third.emailId);
      const more = [second.emailId, third.emailId];
      for (const id of more) expect(await retryResult(id)).toBe('FAILED');
      for (const id of more) {
        const state = await emailState(id);
        expect(state).toMatchObject({ status: 'FAILED', soft_bounced: true });
        expect(state?.error).toContain(`452 ${MAILBOX_FULL.text}`);
      }
      const lastBounce = (
        (await stack.api.get(`/events/contact/${contact}`, sk)).body.data as EventView[]
      ).find((e) => e.name === 'email.bounced' && e.data.emailId === third.emailId);
      expect(lastBounce?.data).toMatchObject({ source: 'relay', code: 452, status: '4.2.2' });
      expect(await suppressionOf(project.id, to)).toMatchObject({
        reason: 'soft_bounce',
        source: 'relay',
        detail: { code: 452, status: '4.2.2' },
      });
      expect((await stack.api.get(`/contacts/${contact}`, sk)).body.subscribed).toBe(true);
      const again = await stack.api.post('/v1/send', {
        ...sk,
        body: { to, subject: 'Again', body: '<p>b</p>', from: `a@${domain}` },
      });
      expect(again.body.data.emails[0].status).toBe('SUPPRESSED');
      expect(stack.smtp.messages.filter((m) => m.to.includes(to))).toHaveLength(0);
    } finally {
      stack.smtp.setResponder(undefined);
    }
  }, 120_000);

  it('sends on the retry after one 452: SENT, no bounce', async () => {
    const { project, sk, domain } = await sender();
    const to = uniqueEmail('full-once');
    let refusals = 0;
    stack.smtp.setResponder((message) => {
      if (message.to.includes(to) && refusals < 1) {
        refusals += 1;
        throw Object.assign(new Error(MAILBOX_FULL.text), { responseCode: MAILBOX_FULL.code });
      }
    });
    try {
      const res = await stack.api.post('/v1/send', {
        ...sk,
        body: { to, subject: 'Room now', body: '<p>b</p>', from: `a@${domain}` },
      });
      expect(res.status, res.text).toBe(200);
      const emailId = res.body.data.emails[0].email as string;
      const contact = res.body.data.emails[0].contact.id as string;
      expect(await retryResult(emailId)).toBe('SENT');
      expect(refusals).toBe(1);
      expect(await emailState(emailId)).toMatchObject({
        status: 'SENT',
        retrying: true,
        soft_bounced: false,
      });
      expect(stack.smtp.messages.filter((m) => m.to.includes(to))).toHaveLength(1);
      const events = (await stack.api.get(`/events/contact/${contact}`, sk)).body
        .data as EventView[];
      expect(events.map((e) => e.name)).toContain('email.sent');
      expect(events.map((e) => e.name)).not.toContain('email.bounced');
      expect(events.map((e) => e.name)).not.toContain('email.failed');
      expect(await suppressionOf(project.id, to)).toBeUndefined();
    } finally {
      stack.smtp.setResponder(undefined);
    }
  }, 60_000);
});
