import { access } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../runtime/embedded/free-port.js';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import {
  arfMessage,
  dsnMessage,
  exchangeBounceMessage,
  outOfOfficeMessage,
  plainBounceMessage,
} from '../helpers/report-messages.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

// Reports read where they arrive (issue 30): mail to an email's return path is a bounce or
// complaint report, applied once through the same path as every other feedback, or kept as
// `undetermined`; never an `email.received`.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
let inboundPort: number;
beforeAll(async () => {
  inboundPort = await freePort();
  ({ dns, stack, stop } = await startSendingStack({
    INBOUND_SMTP_PORT: String(inboundPort),
    INBOUND_MX_HOST: 'mx.reports.test',
  }));
});
afterAll(async () => {
  await stop?.();
});

/** A project with a domain whose return path is in place, and one email sent from it. */
async function sentEmail() {
  const { sk, project } = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('reports'));
  const to = uniqueEmail('reader');
  const made = await stack.api.post('/contacts', { ...sk, body: { email: to, subscribed: true } });
  expect(made.status, made.text).toBe(201);
  const res = await stack.api.post('/v1/send', {
    ...sk,
    body: { to, subject: 'Return path', body: '<p>b</p>', from: `news@${domain}` },
  });
  expect(res.status, res.text).toBe(200);
  const emailId: string = res.body.data.emails[0].email;
  const captured = await stack.smtp.waitFor((m) => m.to.includes(to));
  expect(captured.from.endsWith(`@rp.${domain}`)).toBe(true);
  return { sk, project, domain, to, emailId, returnPath: captured.from };
}

/** Hands a raw message to the inbound receiver over SMTP, as a remote mail system would. */
async function deliver(raw: string, rcpt: string): Promise<void> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: inboundPort,
    secure: false,
    ignoreTLS: true,
  });
  try {
    const info = await transport.sendMail({
      envelope: { from: 'mailer-daemon@remote.test', to: [rcpt] },
      raw,
    });
    expect(info.accepted).toEqual([rcpt]);
  } finally {
    transport.close();
  }
}

const db = <T>(text: string, params: unknown[]) =>
  withDatabase(async (c) => (await c.query(text, params)).rows as T[]);

const emailState = async (emailId: string) => {
  const [row] = await db<{
    status: string;
    bounced: boolean;
    soft: boolean;
    complained: boolean;
  }>(
    `SELECT status, bounced_at IS NOT NULL AS bounced, soft_bounced_at IS NOT NULL AS soft,
            complained_at IS NOT NULL AS complained FROM emails WHERE id = $1`,
    [emailId],
  );
  return row;
};

const eventsOf = (projectId: string, emailId: string) =>
  db<{ name: string; data: Record<string, unknown> }>(
    `SELECT name, data FROM events WHERE project_id = $1 AND data ->> 'emailId' = $2
      AND name IN ('email.bounced', 'email.complained') ORDER BY id`,
    [projectId, emailId],
  );

const suppressionOf = async (projectId: string, email: string) =>
  (
    await db<{ reason: string; source: string; email_id: string }>(
      'SELECT reason, source, email_id FROM suppressions WHERE project_id = $1 AND email = $2',
      [projectId, email],
    )
  )[0];

const reportsOf = (projectId: string) =>
  db<{ email_id: string | null; format: string; outcome: string; storage_key: string }>(
    'SELECT email_id, format, outcome, storage_key FROM delivery_reports WHERE project_id = $1 ORDER BY id',
    [projectId],
  );

const receivedCount = async (projectId: string) =>
  (
    await db<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE project_id = $1 AND name = 'email.received'`,
      [projectId],
    )
  )[0]?.n;

describe('reports to a return path', () => {
  it('applies a DSN hard bounce once: BOUNCED, suppressed with its evidence, unsubscribed', async () => {
    const { sk, project, to, emailId, returnPath } = await sentEmail();
    const raw = dsnMessage({ to: returnPath, recipient: to });
    await deliver(raw, returnPath);
    await deliver(raw, returnPath);
    expect(await emailState(emailId)).toMatchObject({ status: 'BOUNCED', bounced: true });
    const events = await eventsOf(project.id, emailId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      name: 'email.bounced',
      data: { emailId, bounceType: 'hard', source: 'dsn', status: '5.1.1' },
    });
    expect(String(events[0]?.data.diagnostic)).toContain('User unknown');
    expect(await suppressionOf(project.id, to)).toEqual({
      reason: 'hard_bounce',
      source: 'dsn',
      email_id: emailId,
    });
    const contacts = await stack.api.get(`/contacts?email=${encodeURIComponent(to)}`, sk);
    const contact = (contacts.body.data as { email: string; subscribed: boolean }[]).find(
      (c) => c.email === to,
    );
    expect(contact?.subscribed).toBe(false);
    const reports = await reportsOf(project.id);
    expect(reports.map((r) => [r.format, r.outcome])).toEqual([
      ['dsn', 'applied'],
      ['dsn', 'repeated'],
    ]);
    await access(path.join(stack.env.DATA_DIR as string, reports[0]?.storage_key as string));
    expect(await receivedCount(project.id)).toBe(0);
  });

  it('applies a delayed DSN as a soft bounce once, suppressing nobody', async () => {
    const { project, to, emailId, returnPath } = await sentEmail();
    const raw = dsnMessage({
      to: returnPath,
      recipient: to,
      action: 'delayed',
      status: '4.4.7',
      diagnostic: 'smtp; 451 4.4.7 try later',
    });
    await deliver(raw, returnPath);
    await deliver(raw, returnPath);
    expect(await emailState(emailId)).toMatchObject({ status: 'SENT', soft: true, bounced: false });
    const events = await eventsOf(project.id, emailId);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ bounceType: 'soft', source: 'dsn', status: '4.4.7' });
    expect(await suppressionOf(project.id, to)).toBeUndefined();
    expect((await reportsOf(project.id)).map((r) => r.outcome)).toEqual(['applied', 'repeated']);
    expect(await receivedCount(project.id)).toBe(0);
  });

  it('applies an ARF complaint once: suppressed as a complaint from arf', async () => {
    const { project, to, emailId, returnPath } = await sentEmail();
    const raw = arfMessage({ to: returnPath, recipient: to });
    await deliver(raw, returnPath);
    await deliver(raw, returnPath);
    expect(await emailState(emailId)).toMatchObject({ complained: true });
    const events = await eventsOf(project.id, emailId);
    expect(events.map((e) => e.name)).toEqual(['email.complained']);
    expect(events[0]?.data).toMatchObject({ source: 'arf' });
    expect(await suppressionOf(project.id, to)).toMatchObject({
      reason: 'complaint',
      source: 'arf',
    });
    expect((await reportsOf(project.id)).map((r) => [r.format, r.outcome])).toEqual([
      ['arf', 'applied'],
      ['arf', 'repeated'],
    ]);
    expect(await receivedCount(project.id)).toBe(0);
  });

  it('reads a plain MAILER-DAEMON bounce and an Exchange NDR as hard bounces, once each', async () => {
    for (const message of [plainBounceMessage, exchangeBounceMessage]) {
      const { project, to, emailId, returnPath } = await sentEmail();
      const raw = message({ to: returnPath, recipient: to });
      await deliver(raw, returnPath);
      await deliver(raw, returnPath);
      expect(await emailState(emailId)).toMatchObject({ status: 'BOUNCED' });
      const events = await eventsOf(project.id, emailId);
      expect(events).toHaveLength(1);
      expect(events[0]?.data).toMatchObject({ bounceType: 'hard', source: 'dsn', status: '5.1.1' });
      expect(await suppressionOf(project.id, to)).toMatchObject({ reason: 'hard_bounce' });
      expect((await reportsOf(project.id)).map((r) => [r.format, r.outcome])).toEqual([
        ['plain_bounce', 'applied'],
        ['plain_bounce', 'repeated'],
      ]);
      expect(await receivedCount(project.id)).toBe(0);
    }
  });

  it('counts nothing for an out-of-office reply, a forged token or another recipient', async () => {
    const { project, to, emailId, returnPath, domain } = await sentEmail();
    await deliver(outOfOfficeMessage({ to: returnPath, recipient: to }), returnPath);
    // One character of the token changed: it names no email.
    const [token] = returnPath.split('@') as [string];
    const forged = `${token.slice(0, 30)}${token[30] === 'a' ? 'b' : 'a'}${token.slice(31)}@rp.${domain}`;
    await deliver(dsnMessage({ to: forged, recipient: to }), forged);
    // A DSN about someone else, to this email's return path.
    await deliver(
      dsnMessage({ to: returnPath, recipient: 'someone-else@remote.test' }),
      returnPath,
    );
    await deliver(`From: a@b.test\r\nSubject: hi\r\n\r\nnot a report\r\n`, returnPath);
    expect(await emailState(emailId)).toMatchObject({
      status: 'SENT',
      bounced: false,
      soft: false,
      complained: false,
    });
    expect(await eventsOf(project.id, emailId)).toEqual([]);
    expect(await suppressionOf(project.id, to)).toBeUndefined();
    expect(
      (await reportsOf(project.id)).map((r) => [r.format, r.outcome, r.email_id !== null]),
    ).toEqual([
      ['auto_reply', 'ignored', true],
      ['unknown', 'undetermined', false],
      ['dsn', 'undetermined', true],
      ['unknown', 'undetermined', true],
    ]);
    expect(await receivedCount(project.id)).toBe(0);
  });
});
