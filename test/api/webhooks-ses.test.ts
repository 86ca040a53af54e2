import { createSign } from 'node:crypto';
import http from 'node:http';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { verifiedDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

// A stand-in for SNS: its certificate and subscription URLs are served here, on loopback.
let dns: DnsServer;
let stack: TestStack;
let sns: http.Server;
let snsUrl: string;
let keys: { private: string; cert: string };
const confirmations: string[] = [];

beforeAll(async () => {
  keys = await Promise.resolve(
    selfsigned.generate([{ name: 'commonName', value: 'sns.test' }], { keySize: 2048 }),
  );
  sns = http.createServer((req, res) => {
    if (req.url === '/cert.pem') res.end(keys.cert);
    else if (req.url === '/missing.pem') {
      res.statusCode = 404;
      res.end('Not Found');
    } else if (req.url === '/failing.pem') {
      res.statusCode = 502;
      res.end('Bad Gateway');
    } else if (req.url === '/not-a-cert.pem') res.end('<html>not a certificate</html>');
    // An upstream that cannot be reached: the connection drops before any answer.
    else if (req.url?.startsWith('/unreachable')) req.socket.destroy();
    else {
      confirmations.push(req.url ?? '');
      res.end('<ConfirmSubscriptionResponse/>');
    }
  });
  await new Promise<void>((resolve) => sns.listen(0, '127.0.0.1', resolve));
  snsUrl = `http://127.0.0.1:${(sns.address() as { port: number }).port}`;
  dns = await startDnsServer();
  stack = await startStack({
    env: {
      DNS_SERVERS: dns.address,
      SPF_INCLUDE: '_spf.mailwright.test',
      SNS_URL_PATTERN: `^${snsUrl.replace(/\./g, '\\.')}/`,
    },
  });
});
afterAll(async () => {
  await stack?.stop();
  await dns?.stop();
  await new Promise((r) => sns?.close(r));
});

function sign(envelope: Record<string, string>, privateKey = keys.private): Record<string, string> {
  const keysToSign =
    envelope.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  const text = keysToSign
    .filter((k) => envelope[k] !== undefined)
    .map((k) => `${k}\n${envelope[k]}\n`)
    .join('');
  const signer = createSign('RSA-SHA256');
  signer.update(text);
  return {
    ...envelope,
    SignatureVersion: '2',
    Signature: signer.sign(privateKey, 'base64'),
    SigningCertURL: `${snsUrl}/cert.pem`,
  };
}

const post = (envelope: Record<string, string>) =>
  stack.api.post('/webhooks/ses', {
    rawBody: JSON.stringify(envelope),
    headers: { 'Content-Type': 'text/plain; charset=UTF-8' },
  });

function notification(message: unknown): Record<string, string> {
  return {
    Type: 'Notification',
    MessageId: crypto.randomUUID(),
    TopicArn: 'arn:aws:sns:eu-west-1:123456789012:ses-events',
    Message: JSON.stringify(message),
    Timestamp: new Date().toISOString(),
  };
}

describe('POST /webhooks/ses', () => {
  it('confirms a subscription at its (allowed) SubscribeURL', async () => {
    const res = await post(
      sign({
        Type: 'SubscriptionConfirmation',
        MessageId: crypto.randomUUID(),
        TopicArn: 'arn:aws:sns:eu-west-1:123456789012:ses-events',
        Message: 'You have chosen to subscribe...',
        SubscribeURL: `${snsUrl}/confirm?token=abc`,
        Token: 'abc',
        Timestamp: new Date().toISOString(),
      }),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: true, action: 'confirmed' });
    expect(confirmations).toContain('/confirm?token=abc');
  });

  it('applies a permanent bounce to the email with our Message-ID', async () => {
    const fixture = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(
      stack.api,
      dns,
      fixture.sk.key,
      `ses-${Math.random().toString(36).slice(2, 8)}.example.test`,
    );
    const to = uniqueEmail('ses');
    const sent = await stack.api.post('/v1/send', {
      ...fixture.sk,
      body: { to, subject: 'S', body: 'b', from: `a@${domain}` },
    });
    const emailId = sent.body.data.emails[0].email;
    const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
    // The Message-ID is recorded when SMTP accepts the message; a bounce comes after that.
    const statusOf = async () =>
      withDatabase(
        async (db) =>
          (await db.query('SELECT status FROM emails WHERE id = $1', [emailId])).rows[0]?.status,
      );
    await eventually(async () => (await statusOf()) === 'SENT', {
      what: `email ${emailId} to be SENT`,
      timeoutMs: 10_000,
    });
    const res = await post(
      sign(
        notification({
          notificationType: 'Bounce',
          bounce: { bounceType: 'Permanent' },
          mail: { messageId: 'ses-own-id', commonHeaders: { messageId: mail.parsed.messageId } },
        }),
      ),
    );
    expect(res.body).toEqual({ received: true, action: 'applied' });
    const row = await withDatabase(
      async (db) => (await db.query('SELECT status FROM emails WHERE id = $1', [emailId])).rows[0],
    );
    expect(row.status).toBe('BOUNCED');
  });

  it('refuses a wrong signature, a foreign certificate URL and a malformed body', async () => {
    const other = await Promise.resolve(
      selfsigned.generate([{ name: 'commonName', value: 'evil' }], { keySize: 2048 }),
    );
    const forged = sign(
      notification({
        notificationType: 'Complaint',
        mail: { commonHeaders: { messageId: '<x@y>' } },
      }),
      other.private,
    );
    expect((await post(forged)).status).toBe(401);
    const foreignCert = {
      ...sign(notification({})),
      SigningCertURL: 'https://evil.example.net/cert.pem',
    };
    expect((await post(foreignCert)).status).toBe(401);
    expect(
      (
        await stack.api.post('/webhooks/ses', {
          rawBody: 'not json',
          headers: { 'Content-Type': 'text/plain' },
        })
      ).status,
    ).toBe(400);
    expect((await post({ Type: 'Notification' })).status).toBe(422);
  });

  it('answers 503 when an SNS URL cannot be reached, 401 when its certificate cannot verify', async () => {
    const forged = (certPath: string) => ({
      ...sign(notification({ notificationType: 'Delivery' })),
      Signature: Buffer.from('forged').toString('base64'),
      SigningCertURL: `${snsUrl}${certPath}`,
    });
    const unreachable = await post(forged('/unreachable.pem'));
    expect(unreachable.status, unreachable.text).toBe(503);
    expect(unreachable.body.error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      statusCode: 503,
      requestId: unreachable.headers.get('x-request-id'),
    });
    // Not kept: the next message for that URL fetches it again, and is answered the same.
    expect((await post(forged('/unreachable.pem'))).status).toBe(503);
    // An SNS that answers 5xx is failing for now, like one that cannot be reached.
    const failing = await post(forged('/failing.pem'));
    expect(failing.status, failing.text).toBe(503);
    expect(failing.body.error.code).toBe('SERVICE_UNAVAILABLE');
    for (const certPath of ['/missing.pem', '/not-a-cert.pem']) {
      const res = await post(forged(certPath));
      expect(res.status, `${certPath}: ${res.text}`).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
    const confirmation = await post(
      sign({
        Type: 'SubscriptionConfirmation',
        MessageId: crypto.randomUUID(),
        TopicArn: 'arn:aws:sns:eu-west-1:123456789012:ses-events',
        Message: 'You have chosen to subscribe...',
        SubscribeURL: `${snsUrl}/unreachable/confirm?token=abc`,
        Token: 'abc',
        Timestamp: new Date().toISOString(),
      }),
    );
    expect(confirmation.status, confirmation.text).toBe(503);
    expect(confirmation.body.error.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('keeps a verified notification with text PostgreSQL cannot store, cleaned', async () => {
    const res = await post(
      sign(
        notification({
          notificationType: 'Bounce',
          bounce: { bounceType: 'Permanent' },
          mail: { commonHeaders: { messageId: '<a\u0000b\ud800@example.test>' } },
        }),
      ),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: true, action: 'ignored' });
  });
});
