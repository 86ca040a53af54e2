import { createSign } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../runtime/embedded/free-port.js';
import { ensureSelfSignedCertificate } from '../../runtime/embedded/self-signed-certificate.js';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { eventually } from '../helpers/eventually.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';
import { signedEmailCallback } from '../helpers/email-callback.js';

// A Message-ID is not unique: a message submitted over SMTP keeps its own on every recipient's
// email, and two projects may submit the same one. Delivery reports that name only the
// Message-ID (SES through SNS, POST /webhooks/email with messageId) are matched with the
// recipients they name, and never applied to an email they cannot tell apart.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
let certDir: string;
let ca: string;
let submissionPort: number;
let sns: http.Server;
let snsUrl: string;
let keys: { private: string; cert: string };

beforeAll(async () => {
  keys = await Promise.resolve(
    selfsigned.generate([{ name: 'commonName', value: 'sns.test' }], { keySize: 2048 }),
  );
  // A stand-in for SNS's certificate URL, on loopback.
  sns = http.createServer((_req, res) => res.end(keys.cert));
  await new Promise<void>((resolve) => sns.listen(0, '127.0.0.1', resolve));
  snsUrl = `http://127.0.0.1:${(sns.address() as { port: number }).port}`;
  certDir = await mkdtemp(path.join(tmpdir(), 'mailwright-shared-id-'));
  const { certPath, keyPath } = await ensureSelfSignedCertificate({
    dir: certDir,
    hostname: 'localhost',
  });
  ca = await readFile(certPath, 'utf8');
  submissionPort = await freePort();
  ({ dns, stack, stop } = await startSendingStack({
    SMTP_SUBMISSION_TLS_PORT: String(submissionPort),
    SMTP_TLS_CERT: certPath,
    SMTP_TLS_KEY: keyPath,
    SNS_URL_PATTERN: `^${snsUrl.replace(/\./g, '\\.')}/`,
  }));
});
afterAll(async () => {
  await stop?.();
  await new Promise((r) => sns?.close(r));
  if (certDir) await rm(certDir, { recursive: true, force: true });
});

interface EmailState {
  id: string;
  project_id: string;
  to_address: string;
  status: string;
  complained: boolean;
}

/** A project with a verified domain, and its sender over SMTP submission (implicit TLS). */
async function sender() {
  const fixture = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain('mid'));
  /** Submits one message with `messageId` to `to`: one email per recipient, all SENT. */
  const submit = async (messageId: string, to: string[]): Promise<void> => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: submissionPort,
      secure: true,
      tls: { ca },
      auth: { user: 'app', pass: fixture.project.secretKey },
    });
    try {
      await transport.sendMail({ from: `app@${domain}`, to, subject: 'S', text: 'b', messageId });
    } finally {
      transport.close();
    }
    await eventually(
      async () =>
        (await states(messageId)).filter(
          (e) => e.project_id === fixture.project.id && e.status === 'SENT',
        ).length === to.length,
      { what: `${to.length} SENT emails of ${messageId}`, timeoutMs: 15_000 },
    );
  };
  return { ...fixture, submit };
}

/** Every email with the Message-ID, in every project. */
async function states(messageId: string): Promise<EmailState[]> {
  return withDatabase(
    async (db) =>
      (
        await db.query<EmailState>(
          `SELECT id, project_id, to_address, status, complained_at IS NOT NULL AS complained
             FROM emails WHERE message_id = $1 ORDER BY to_address`,
          [messageId],
        )
      ).rows,
  );
}

const statusOf = (rows: EmailState[], projectId: string, to: string): string | undefined =>
  rows.find((r) => r.project_id === projectId && r.to_address === to)?.status;

async function suppressed(projectId: string): Promise<string[]> {
  return withDatabase(async (db) =>
    (
      await db.query<{ email: string }>(
        'SELECT email FROM suppressions WHERE project_id = $1 ORDER BY email',
        [projectId],
      )
    ).rows.map((r) => r.email),
  );
}

/** An SES notification as SNS signs and posts it. */
async function postSes(message: unknown) {
  const envelope: Record<string, string> = {
    Type: 'Notification',
    MessageId: crypto.randomUUID(),
    TopicArn: 'arn:aws:sns:eu-west-1:123456789012:ses-events',
    Message: JSON.stringify(message),
    Timestamp: new Date().toISOString(),
  };
  const signer = createSign('RSA-SHA256');
  signer.update(
    ['Message', 'MessageId', 'Timestamp', 'TopicArn', 'Type']
      .map((k) => `${k}\n${envelope[k]}\n`)
      .join(''),
  );
  const res = await stack.api.post('/webhooks/ses', {
    rawBody: JSON.stringify({
      ...envelope,
      SignatureVersion: '2',
      Signature: signer.sign(keys.private, 'base64'),
      SigningCertURL: `${snsUrl}/cert.pem`,
    }),
    headers: { 'Content-Type': 'text/plain; charset=UTF-8' },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { received: true; action: string };
}

const sesBounce = (messageId: string, bounced: string[], destination: string[]) => ({
  notificationType: 'Bounce',
  bounce: {
    bounceType: 'Permanent',
    bouncedRecipients: bounced.map((emailAddress) => ({ emailAddress })),
  },
  mail: { messageId: 'ses-own-id', destination, commonHeaders: { messageId } },
});

async function postSigned(body: unknown) {
  const res = await stack.api.post(
    '/webhooks/email',
    signedEmailCallback(body, { secret: stack.env.EMAIL_WEBHOOK_SECRET as string }),
  );
  expect(res.status, res.text).toBe(200);
  return res.body as { received: true; applied: boolean; undetermined?: true };
}

const newMessageId = (label: string): string => `<${label}.${crypto.randomUUID()}@client.example>`;

describe('delivery reports for a Message-ID several emails share', () => {
  it('applies an SES bounce only to the bounced recipient, in the project that sent to it', async () => {
    const a = await sender();
    const b = await sender();
    const messageId = newMessageId('shared');
    const [a1, a2, b1] = [uniqueEmail('a1'), uniqueEmail('a2'), uniqueEmail('b1')];
    await a.submit(messageId, [a1, a2]);
    await b.submit(messageId, [b1]);

    // Project B's recipient bounced; the notification lists every destination of B's message.
    expect(await postSes(sesBounce(messageId, [b1], [b1]))).toEqual({
      received: true,
      action: 'applied',
    });
    const after = await states(messageId);
    expect(after).toHaveLength(3);
    expect(statusOf(after, b.project.id, b1)).toBe('BOUNCED');
    expect(statusOf(after, a.project.id, a1)).toBe('SENT');
    expect(statusOf(after, a.project.id, a2)).toBe('SENT');
    expect(await suppressed(b.project.id)).toEqual([b1]);
    expect(await suppressed(a.project.id)).toEqual([]);

    // A complaint naming both of A's recipients (one written with its display name, in another
    // case) reaches each of their emails once; SNS's retry changes nothing more.
    const complaint = {
      notificationType: 'Complaint',
      complaint: {
        complainedRecipients: [
          { emailAddress: a1.toUpperCase() },
          { emailAddress: `A Two <${a2}>` },
        ],
      },
      mail: { destination: [a1, a2], commonHeaders: { messageId } },
    };
    expect((await postSes(complaint)).action).toBe('applied');
    expect((await postSes(complaint)).action).toBe('ignored');
    const complained = await states(messageId);
    expect(complained.filter((e) => e.complained).map((e) => e.to_address)).toEqual(
      [a1, a2].sort(),
    );
    expect(await suppressed(a.project.id)).toEqual([a1, a2].sort());
    const events = await stack.api.get('/events?event=email.complained', a.sk);
    expect(events.body.data).toHaveLength(2);
  });

  it('changes nothing for a Message-ID it cannot tell apart, or does not know', async () => {
    const a = await sender();
    const b = await sender();
    const messageId = newMessageId('twice');
    const shared = uniqueEmail('both');
    const other = uniqueEmail('other');
    await a.submit(messageId, [shared, other]);
    await b.submit(messageId, [shared]);

    // No recipients at all: three emails carry the Message-ID.
    const bare = {
      notificationType: 'Bounce',
      bounce: { bounceType: 'Permanent' },
      mail: { commonHeaders: { messageId } },
    };
    expect(await postSes(bare)).toEqual({ received: true, action: 'undetermined' });
    // The same address in both projects: which project's email bounced cannot be told.
    expect(await postSes(sesBounce(messageId, [shared], [shared]))).toEqual({
      received: true,
      action: 'undetermined',
    });
    // Our own webhook without a recipient, and with that address.
    expect(await postSigned({ type: 'bounced', messageId })).toEqual({
      received: true,
      applied: false,
      undetermined: true,
    });
    expect(await postSigned({ type: 'complained', messageId, recipient: shared })).toEqual({
      received: true,
      applied: false,
      undetermined: true,
    });
    // A Message-ID no email has, and a recipient the Message-ID was never sent to.
    expect(await postSes(sesBounce(newMessageId('unknown'), [shared], [shared]))).toEqual({
      received: true,
      action: 'ignored',
    });
    expect(await postSigned({ type: 'bounced', messageId: newMessageId('unknown') })).toEqual({
      received: true,
      applied: false,
    });
    expect(
      await postSigned({ type: 'bounced', messageId, recipient: uniqueEmail('stranger') }),
    ).toEqual({ received: true, applied: false });

    const after = await states(messageId);
    expect(after.map((e) => [e.status, e.complained])).toEqual([
      ['SENT', false],
      ['SENT', false],
      ['SENT', false],
    ]);
    expect(await suppressed(a.project.id)).toEqual([]);
    expect(await suppressed(b.project.id)).toEqual([]);

    // The recipient project A alone sent to is told apart, by our webhook's recipient.
    expect(await postSigned({ type: 'bounced', messageId, recipient: other })).toEqual({
      received: true,
      applied: true,
    });
    const last = await states(messageId);
    expect(statusOf(last, a.project.id, other)).toBe('BOUNCED');
    expect(last.filter((e) => e.status === 'BOUNCED')).toHaveLength(1);
    expect(await suppressed(a.project.id)).toEqual([other]);
  });

  it('still applies a report to the one email with a Message-ID, with or without recipients', async () => {
    const a = await sender();
    const first = newMessageId('one');
    const second = newMessageId('two');
    const [to1, to2] = [uniqueEmail('one'), uniqueEmail('two')];
    await a.submit(first, [to1]);
    await a.submit(second, [to2]);
    expect(
      await postSes({
        notificationType: 'Delivery',
        delivery: { recipients: [to1] },
        mail: { destination: [`One <${to1}>`], commonHeaders: { messageId: first } },
      }),
    ).toEqual({ received: true, action: 'applied' });
    expect(await postSigned({ type: 'delivered', messageId: second })).toEqual({
      received: true,
      applied: true,
    });
    expect((await states(first))[0]?.status).toBe('DELIVERED');
    expect((await states(second))[0]?.status).toBe('DELIVERED');
  });
});
