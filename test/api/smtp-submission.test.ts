import { randomInt } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { Resolver } from 'node:dns/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_LIMITS } from '../../domain/accounts/auth-limits.pure.js';
import { RECIPIENTS_MAX } from '../../domain/sending/send-limits.pure.js';
import { ensureSelfSignedCertificate } from '../../runtime/embedded/self-signed-certificate.js';
import { freePort } from '../../runtime/embedded/free-port.js';
import { certificateSha256 } from '../../runtime/submission-tls.js';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { eventually } from '../helpers/eventually.js';
import { uniqueEmail } from '../helpers/factories.js';
import { runEntryPoint } from '../helpers/processes.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

// SMTP submission (issue 26): apps that only speak SMTP send through us, with nodemailer as the
// client over STARTTLS and implicit TLS, trusting the servers' self-signed certificate.

const MAX_BYTES = 100_000;
const RATE_LIMIT = 200;
const HOST = 'smtp.mailwright.test';

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
let certDir: string;
let ca: string;
let port: number;
let tlsPort: number;
beforeAll(async () => {
  certDir = await mkdtemp(path.join(tmpdir(), 'mailwright-smtp-tls-'));
  // The certificate `npm start` would make, for the loopback address the tests connect to.
  const { certPath, keyPath } = await ensureSelfSignedCertificate({
    dir: certDir,
    hostname: 'localhost',
  });
  ca = await readFile(certPath, 'utf8');
  [port, tlsPort] = [await freePort(), await freePort()];
  ({ dns, stack, stop } = await startSendingStack({
    SMTP_SUBMISSION_PORT: String(port),
    SMTP_SUBMISSION_TLS_PORT: String(tlsPort),
    SMTP_TLS_CERT: certPath,
    SMTP_TLS_KEY: keyPath,
    SMTP_SUBMISSION_HOST: HOST,
    SMTP_SUBMISSION_MAX_BYTES: String(MAX_BYTES),
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
  }));
});
afterAll(async () => {
  await stop?.();
  if (certDir) await rm(certDir, { recursive: true, force: true });
});

/** A loopback address of the test's own, so per-address throttles never meet another test's. */
const clientAddress = (): string =>
  `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

type Transport = Transporter<SMTPTransport.SentMessageInfo>;

/** nodemailer as an app would use it: STARTTLS on the submission port, or implicit TLS. */
function client({
  pass,
  user = 'mailwright',
  implicitTls = false,
  localAddress = clientAddress(),
  at = implicitTls ? tlsPort : port,
}: {
  pass?: string;
  user?: string;
  implicitTls?: boolean;
  localAddress?: string;
  /** The port to connect to (the test stack's API's, by default). */
  at?: number;
}): Transport {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: at,
    secure: implicitTls,
    requireTLS: !implicitTls,
    tls: { ca },
    localAddress,
    auth: pass === undefined ? undefined : { user, pass },
  });
}

/** Runs `work` with a transport and closes it. */
async function using<T>(transport: Transport, work: (t: Transport) => Promise<T>): Promise<T> {
  try {
    return await work(transport);
  } finally {
    transport.close();
  }
}

/** The SMTP error a call ended with (nodemailer's responseCode and the server's words). */
async function refusal(
  work: Promise<unknown>,
): Promise<{ responseCode?: number; response?: string }> {
  try {
    await work;
  } catch (error) {
    return error as { responseCode?: number; response?: string };
  }
  throw new Error('Expected an SMTP refusal');
}

async function sender() {
  const fixture = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain('smtp'));
  return { ...fixture, domain };
}

async function emailRows(
  projectId: string,
): Promise<{ id: string; status: string; to_address: string; message_id: string | null }[]> {
  return withDatabase(
    async (db) =>
      (
        await db.query(
          'SELECT id, status, to_address, message_id FROM emails WHERE project_id = $1 ORDER BY to_address',
          [projectId],
        )
      ).rows,
  );
}

const headerOf = (
  mail: { parsed: { headers: { key: string; value: string }[] } },
  key: string,
): string | undefined => mail.parsed.headers.find((h) => h.key === key)?.value;

describe('SMTP submission: sending', () => {
  it('sends over STARTTLS with the secret key: one DKIM-signed email per recipient, Bcc included, with headers, attachments and the Message-ID', async () => {
    const { project, sk, domain } = await sender();
    const to = uniqueEmail('to');
    const cc = uniqueEmail('cc');
    const bcc = uniqueEmail('bcc');
    const messageId = `<order-17.${Date.now()}@app.example>`;
    const pdf = Buffer.from('%PDF-1.4 fake receipt \u0000\u0001 binary');
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
    const info = await using(client({ pass: project.secretKey, user: 'any name' }), (t) =>
      t.sendMail({
        from: { name: 'The Shop', address: `shop@${domain}` },
        to: { name: 'Ada Buyer', address: to },
        cc,
        bcc,
        replyTo: `support@${domain}`,
        subject: 'Your order {{ not a variable }}',
        html: '<style>p { color: red }</style><p>Thanks {{ name }} {% raw %}</p><img src="cid:logo@app">',
        messageId,
        inReplyTo: '<thread-1@app.example>',
        headers: { 'X-Campaign': 'spring', 'X-Ticket': 'T-42' },
        attachments: [
          { filename: 'receipt.pdf', content: pdf, contentType: 'application/pdf' },
          { filename: 'logo.png', content: png, contentType: 'image/png', cid: 'logo@app' },
        ],
      }),
    );
    expect(info.response).toMatch(/^250 2\.0\.0 Queued as [0-9a-f-]{36} and 2 more$/);
    expect([...info.accepted].sort()).toEqual([bcc, cc, to].sort());

    const resolver = new Resolver();
    resolver.setServers([dns.address]);
    for (const address of [to, cc, bcc]) {
      const mail = await stack.smtp.waitFor((m) => m.to.includes(address));
      // Each recipient gets an email of its own, addressed to it alone: a Bcc stays hidden.
      expect(mail.to).toEqual([address]);
      expect(mail.parsed.to?.map((a) => a.address)).toEqual([address]);
      expect(mail.parsed.subject).toBe('Your order {{ not a variable }}');
      expect(mail.parsed.from).toMatchObject({ name: 'The Shop', address: `shop@${domain}` });
      expect(mail.parsed.replyTo?.[0]?.address).toBe(`support@${domain}`);
      // Final content: CSS braces and template-like text arrive as written.
      expect(mail.parsed.html).toContain('<style>p { color: red }</style>');
      expect(mail.parsed.html).toContain('<p>Thanks {{ name }} {% raw %}</p>');
      expect(mail.parsed.html).toContain('src="cid:logo@app"');
      expect(mail.parsed.messageId).toBe(messageId);
      expect(headerOf(mail, 'x-campaign')).toBe('spring');
      expect(headerOf(mail, 'x-ticket')).toBe('T-42');
      expect(headerOf(mail, 'in-reply-to')).toBe('<thread-1@app.example>');
      const receipt = mail.parsed.attachments.find((a) => a.filename === 'receipt.pdf');
      expect(receipt?.mimeType).toBe('application/pdf');
      expect(Buffer.from(receipt?.content as ArrayBuffer).equals(pdf)).toBe(true);
      const logo = mail.parsed.attachments.find((a) => a.filename === 'logo.png');
      expect(logo).toMatchObject({ contentId: '<logo@app>', disposition: 'inline' });
      expect(Buffer.from(logo?.content as ArrayBuffer).equals(png)).toBe(true);
      for (const other of [to, cc, bcc].filter((a) => a !== address))
        expect(mail.raw.toString()).not.toContain(other);

      const dkim = await dkimVerify(mail.raw, {
        resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
      });
      expect(dkim.results).toHaveLength(1);
      expect(dkim.results[0]?.status.result).toBe('pass');
      expect(dkim.results[0]?.signingDomain).toBe(domain);
    }

    // The emails rows and their events, as for POST /v1/send.
    let rows: Awaited<ReturnType<typeof emailRows>> = [];
    await eventually(
      async () => {
        rows = await emailRows(project.id);
        return rows.length === 3 && rows.every((r) => r.status === 'SENT');
      },
      { what: 'three SENT emails', describe: () => JSON.stringify(rows) },
    );
    expect(rows.map((r) => r.to_address).sort()).toEqual([bcc, cc, to].sort());
    expect(rows.every((r) => r.message_id === messageId)).toBe(true);
    const sent = await stack.api.get('/events?event=email.sent', sk);
    const sentIds = (sent.body.data as { data: { emailId: string } }[]).map((e) => e.data.emailId);
    expect(sentIds.sort()).toEqual(rows.map((r) => r.id).sort());
    // The recipient is a contact, with the display name's address.
    const contacts = await stack.api.get(`/contacts?search=${encodeURIComponent(to)}`, sk);
    expect(contacts.body.data.map((c: { email: string }) => c.email)).toContain(to);
  });

  it('sends over implicit TLS; a text-only message becomes an HTML body with its line breaks', async () => {
    const { project, domain } = await sender();
    const to = uniqueEmail('text');
    await using(client({ pass: project.secretKey, implicitTls: true }), (t) =>
      t.sendMail({
        from: `app@${domain}`,
        to,
        subject: 'Plain text',
        text: 'Line one\nLine <two> & {{ three }}',
      }),
    );
    const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
    expect(mail.parsed.html).toContain('Line one<br>\nLine &lt;two&gt; &amp; {{ three }}');
    expect(mail.parsed.text).toContain('Line one');
    expect(mail.parsed.text).toContain('Line <two> & {{ three }}');
    // Without a Message-ID of the message's own choosing, nodemailer's is kept too.
    expect(mail.parsed.messageId).toMatch(/^<.+@.+>$/);
  });

  it('refuses to start the API with a submission port but no certificate', async () => {
    const api = runEntryPoint('runtime/api.ts', {
      ...stack.env,
      PORT: String(await freePort()),
      SMTP_SUBMISSION_PORT: String(await freePort()),
      SMTP_SUBMISSION_TLS_PORT: '',
      SMTP_TLS_CERT: '',
      SMTP_TLS_KEY: '',
    });
    try {
      expect(await api.exited).not.toBe(0);
      expect(api.output()).toContain(
        'SMTP submission (SMTP_SUBMISSION_PORT / SMTP_SUBMISSION_TLS_PORT) needs SMTP_TLS_CERT and SMTP_TLS_KEY',
      );
    } finally {
      await api.stop();
    }
  });

  it('skips a port npm start picked that another program took meanwhile; an operator-set one fails the start', async () => {
    // Stand-ins for programs that took 587 and 2525 between npm start's check and the listen.
    const taken = [net.createServer(), net.createServer()];
    const [takenPort, takenInboundPort] = await Promise.all(
      taken.map(
        (server) =>
          new Promise<number>((resolve) =>
            server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
          ),
      ),
    );
    const freeTlsPort = await freePort();
    const apiPort = await freePort();
    const env = {
      ...stack.env,
      PORT: String(apiPort),
      SMTP_SUBMISSION_PORT: String(takenPort),
      SMTP_SUBMISSION_TLS_PORT: String(freeTlsPort),
      INBOUND_SMTP_PORT: String(takenInboundPort),
    };
    const picked = runEntryPoint('runtime/api.ts', {
      ...env,
      SMTP_SUBMISSION_PORTS_OPTIONAL: 'true',
      INBOUND_SMTP_PORT_OPTIONAL: 'true',
    });
    const set = runEntryPoint('runtime/api.ts', { ...env, PORT: String(await freePort()) });
    try {
      await picked.waitForOutput(/api listening/);
      expect(picked.output()).toContain(
        `port ${takenPort} was taken before it could be listened on: SMTP submission with STARTTLS is off`,
      );
      expect(picked.output()).toContain(
        `port ${takenInboundPort} was taken before it could be listened on: inbound mail is off`,
      );
      const res = await fetch(`http://127.0.0.1:${apiPort}/config`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        features: { smtp: boolean };
        smtpSubmission: unknown;
      };
      expect(body.features.smtp).toBe(true);
      expect(body.smtpSubmission).toEqual({
        host: HOST,
        port: null,
        tlsPort: freeTlsPort,
        certificateSha256: certificateSha256(ca),
      });
      // The implicit-TLS port it kept takes mail.
      const { project, domain } = await sender();
      const to = uniqueEmail('kept');
      await using(client({ pass: project.secretKey, implicitTls: true, at: freeTlsPort }), (t) =>
        t.sendMail({ from: `app@${domain}`, to, subject: 'Kept port', text: 'x' }),
      );
      expect((await stack.smtp.waitFor((m) => m.to.includes(to))).parsed.subject).toBe('Kept port');

      expect(await set.exited).not.toBe(0);
      expect(set.output()).toContain('EADDRINUSE');
    } finally {
      await Promise.all([picked.stop(), set.stop()]);
      await Promise.all(taken.map((server) => new Promise((r) => server.close(r))));
    }
  });

  it('answers /config with smtp on, its host, ports and certificate fingerprint', async () => {
    const res = await stack.api.get('/config');
    expect(res.status).toBe(200);
    expect(res.body.features.smtp).toBe(true);
    expect(res.body.smtpSubmission).toEqual({
      host: HOST,
      port,
      tlsPort,
      certificateSha256: certificateSha256(ca),
    });
  });
});

describe('SMTP submission: authentication', () => {
  it('refuses a wrong secret key with 535, and the public key with 535 (PLAIN and LOGIN)', async () => {
    const { project } = await sender();
    const localAddress = clientAddress();
    const wrong = await refusal(
      using(client({ pass: `sk_${'A'.repeat(32)}`, localAddress }), (t) => t.verify()),
    );
    expect(wrong.responseCode).toBe(535);
    expect(wrong.response).toMatch(/535 5\.7\.8 .*secret key/);
    const pub = await refusal(
      using(client({ pass: project.publicKey, localAddress }), (t) => t.verify()),
    );
    expect(pub.responseCode).toBe(535);
    expect(pub.response).toMatch(/public key \(pk_\) cannot send/);
    // The right key from the same client works (two failures are under the throttle), with
    // AUTH PLAIN (nodemailer's choice) and AUTH LOGIN alike.
    expect(await using(client({ pass: project.secretKey, localAddress }), (t) => t.verify())).toBe(
      true,
    );
    const login = nodemailer.createTransport({
      host: '127.0.0.1',
      port: tlsPort,
      secure: true,
      tls: { ca },
      localAddress,
      authMethod: 'LOGIN',
      auth: { user: 'someone', pass: project.secretKey },
    });
    expect(await using(login, (t) => t.verify())).toBe(true);
    const badLogin = nodemailer.createTransport({
      host: '127.0.0.1',
      port: tlsPort,
      secure: true,
      tls: { ca },
      localAddress,
      authMethod: 'LOGIN',
      auth: { user: 'someone', pass: `sk_${'C'.repeat(32)}` },
    });
    expect((await refusal(using(badLogin, (t) => t.verify()))).responseCode).toBe(535);
  });

  it(`throttles failed logins per client address: ${AUTH_LIMITS.smtpAuthFailuresPerIp.max} get 535, the next 454, even with the right key`, async () => {
    const { project } = await sender();
    const { max } = AUTH_LIMITS.smtpAuthFailuresPerIp;
    const address = clientAddress();
    for (let i = 1; i <= max; i += 1) {
      const failed = await refusal(
        using(client({ pass: `sk_${'B'.repeat(32)}`, localAddress: address }), (t) => t.verify()),
      );
      expect(failed.responseCode, `attempt ${i}`).toBe(535);
    }
    const throttled = await refusal(
      using(client({ pass: `sk_${'B'.repeat(32)}`, localAddress: address }), (t) => t.verify()),
    );
    expect(throttled.responseCode).toBe(454);
    expect(throttled.response).toMatch(
      /Too many failed logins from your address: try again in \d+ seconds/,
    );
    const rightKey = await refusal(
      using(client({ pass: project.secretKey, localAddress: address }), (t) => t.verify()),
    );
    expect(rightKey.responseCode).toBe(454);
    // Another address is not affected.
    expect(await using(client({ pass: project.secretKey }), (t) => t.verify())).toBe(true);
  });

  it('refuses the next message of a session whose key was rotated meanwhile (530)', async () => {
    const { owner, project, domain } = await sender();
    const pooled = nodemailer.createTransport({
      pool: true,
      maxConnections: 1,
      host: '127.0.0.1',
      port,
      requireTLS: true,
      tls: { ca },
      localAddress: clientAddress(),
      auth: { user: 'app', pass: project.secretKey },
    });
    await using(pooled, async (t) => {
      const mail = () =>
        t.sendMail({ from: `a@${domain}`, to: uniqueEmail(), subject: 'Pooled', text: 'Hi' });
      expect((await mail()).response).toMatch(/^250 /);
      const rotated = await stack.api.post(`/users/@me/projects/${project.id}/regenerate-keys`, {
        cookie: owner.cookie,
      });
      expect(rotated.status, rotated.text).toBe(200);
      const refused = await refusal(mail());
      expect(refused.responseCode).toBe(530);
      expect(refused.response).toMatch(/no longer the project's: log in again/);
    });
    expect(await emailRows(project.id)).toHaveLength(1);
  });

  it('refuses AUTH before STARTTLS on the submission port, and mail without AUTH', async () => {
    const { project, domain } = await sender();
    const plain = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      ignoreTLS: true,
      localAddress: clientAddress(),
      auth: { user: 'app', pass: project.secretKey },
    });
    const beforeTls = await refusal(using(plain, (t) => t.verify()));
    expect(beforeTls.responseCode).toBe(538);
    const anonymous = await refusal(
      using(client({}), (t) =>
        t.sendMail({ from: `a@${domain}`, to: uniqueEmail(), subject: 's', text: 't' }),
      ),
    );
    expect(anonymous.responseCode).toBe(530);
  });
});

describe('SMTP submission: refusals', () => {
  it('refuses an unverified sender with 550: the envelope at MAIL FROM, the From header after DATA', async () => {
    const { project, domain } = await sender();
    const atMailFrom = await refusal(
      using(client({ pass: project.secretKey }), (t) =>
        t.sendMail({ from: 'me@unverified.test', to: uniqueEmail(), subject: 's', text: 't' }),
      ),
    );
    expect(atMailFrom.responseCode).toBe(550);
    expect(atMailFrom.response).toMatch(
      /550 5\.7\.1 MAIL FROM: unverified\.test is not a verified domain of this project/,
    );
    const afterData = await refusal(
      using(client({ pass: project.secretKey }), (t) =>
        t.sendMail({
          envelope: { from: `bounces@${domain}`, to: [uniqueEmail()] },
          from: 'me@unverified.test',
          to: uniqueEmail(),
          subject: 's',
          text: 't',
        }),
      ),
    );
    expect(afterData.responseCode).toBe(550);
    expect(afterData.response).toMatch(/from: unverified\.test is not a verified domain/);
    expect(await emailRows(project.id)).toEqual([]);
  });

  it('answers a message /v1/send would refuse with 554 and the validation message', async () => {
    const { project, domain } = await sender();
    const res = await refusal(
      using(client({ pass: project.secretKey }), (t) =>
        t.sendMail({ from: `a@${domain}`, to: uniqueEmail(), text: 'No subject' }),
      ),
    );
    expect(res.responseCode).toBe(554);
    expect(res.response).toMatch(/554 5\.6\.0 subject: Required when no template is given/);
    expect(await emailRows(project.id)).toEqual([]);
  });

  it(`takes a message of ${MAX_BYTES} bytes and answers one byte more with 552`, async () => {
    const { project, domain } = await sender();
    const raw = (size: number, to: string): string => {
      const head = `From: a@${domain}\r\nTo: ${to}\r\nSubject: Size\r\nContent-Type: text/plain\r\n\r\n`;
      return `${head}${'x'.repeat(size - head.length - 2)}\r\n`;
    };
    const [fits, over] = [uniqueEmail('fits'), uniqueEmail('over')];
    const send = (size: number, to: string) =>
      using(client({ pass: project.secretKey }), (t) =>
        t.sendMail({ envelope: { from: `a@${domain}`, to: [to] }, raw: raw(size, to) }),
      );
    expect(Buffer.byteLength(raw(MAX_BYTES, fits))).toBe(MAX_BYTES);
    expect((await send(MAX_BYTES, fits)).response).toMatch(/^250 /);
    const tooBig = await refusal(send(MAX_BYTES + 1, over));
    expect(tooBig.responseCode).toBe(552);
    expect(tooBig.response).toMatch(
      new RegExp(`552 5\\.3\\.4 Message larger than ${MAX_BYTES} bytes`),
    );
    await stack.smtp.waitFor((m) => m.to.includes(fits));
    expect((await emailRows(project.id)).map((r) => r.to_address)).toEqual([fits]);
  });

  it(`takes ${RECIPIENTS_MAX} recipients in one message and refuses the next with 452`, async () => {
    const { project, domain } = await sender();
    const recipients = Array.from({ length: RECIPIENTS_MAX + 1 }, (_, i) => uniqueEmail(`r${i}`));
    const info = await using(client({ pass: project.secretKey }), (t) =>
      t.sendMail({ from: `a@${domain}`, to: recipients, subject: 'Many', text: 'Hello' }),
    );
    expect(info.accepted).toHaveLength(RECIPIENTS_MAX);
    expect(info.rejected).toEqual([recipients[RECIPIENTS_MAX]]);
    expect(info.rejectedErrors?.[0]?.responseCode).toBe(452);
    expect(await emailRows(project.id)).toHaveLength(RECIPIENTS_MAX);
  });

  it("holds messages to the project's monthly cap: N recipients pass, one more is 452", async () => {
    const { project, sk, domain } = await sender();
    const cap = await stack.api.put(`/users/@me/projects/${project.id}/billing-limits`, {
      ...sk,
      body: { transactional: 3 },
    });
    expect(cap.status, cap.text).toBe(200);
    const send = (to: string[]) =>
      using(client({ pass: project.secretKey }), (t) =>
        t.sendMail({ from: `a@${domain}`, to, subject: 'Capped', text: 'Hello' }),
      );
    await send([uniqueEmail(), uniqueEmail()]);
    await send([uniqueEmail()]);
    const over = await refusal(send([uniqueEmail()]));
    expect(over.responseCode).toBe(452);
    expect(over.response).toMatch(/452 4\.3\.1 .*monthly transactional cap of 3/);
    expect(await emailRows(project.id)).toHaveLength(3);
  });

  it("shares the project's request rate limit with the API: the last request's worth passes, the next message is 452", async () => {
    const { project, sk, domain } = await sender();
    // Spend the window's budget over HTTP down to one request.
    let remaining = RATE_LIMIT;
    while (remaining > 1) {
      const res = await stack.api.get(`/projects/${project.id}/setup-state`, sk);
      expect(res.status, res.text).toBe(200);
      remaining = Number(res.headers.get('ratelimit-remaining'));
    }
    const send = () =>
      using(client({ pass: project.secretKey }), (t) =>
        t.sendMail({ from: `a@${domain}`, to: uniqueEmail(), subject: 'Limited', text: 'Hi' }),
      );
    expect((await send()).response).toMatch(/^250 /);
    const limited = await refusal(send());
    expect(limited.responseCode).toBe(452);
    expect(limited.response).toMatch(/452 4\.7\.0 Too many requests\. Retry after \d+ seconds/);
    expect(await emailRows(project.id)).toHaveLength(1);
  });
});
