import { once } from 'node:events';
import { access } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../runtime/embedded/free-port.js';
import { withDatabase } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';
import { buildWorkflow, waitForExecutions } from '../helpers/workflows.js';

const MAX_BYTES = 50_000;

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
let inboundPort: number;
beforeAll(async () => {
  inboundPort = await freePort();
  ({ dns, stack, stop } = await startSendingStack({
    INBOUND_SMTP_PORT: String(inboundPort),
    INBOUND_MAX_BYTES: String(MAX_BYTES),
    INBOUND_MX_HOST: 'mx.inbound.test',
  }));
});
afterAll(async () => {
  await stop?.();
});

/** A real SMTP client, as another mail server would deliver to us. */
function mailer() {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: inboundPort,
    secure: false,
    ignoreTLS: true,
  });
}

describe('inbound mail', () => {
  it("advises an MX record for the inbound host among the domain's records, and checks it", async () => {
    const { sk } = await projectFixture(stack.api);
    const name = uniqueDomain('mx');
    const added = await stack.api.post('/domains', { ...sk, body: { domain: name } });
    expect(added.status, added.text).toBe(201);
    const mx = added.body.records.find((r: { purpose: string }) => r.purpose === 'inbound');
    expect(mx).toEqual({
      type: 'MX',
      name,
      value: '10 mx.inbound.test',
      purpose: 'inbound',
      required: false,
      verified: false,
    });
    // Sending never needs it: verified without it, then the MX is found.
    for (const r of added.body.records.filter((r: { type: string }) => r.type === 'TXT'))
      dns.publishTxt(r.name, r.value);
    const without = await stack.api.get(`/domains/${added.body.id}/verify`, sk);
    expect(without.body.status).toBe('VERIFIED');
    expect(without.body.records.find((r: any) => r.purpose === 'inbound').verified).toBe(false);
    dns.publishMx(name, 'mx.inbound.test.', 10);
    const withMx = await stack.api.get(`/domains/${added.body.id}/verify`, sk);
    expect(withMx.body.records.find((r: any) => r.purpose === 'inbound').verified).toBe(true);
  });

  it('keeps mail to a verified domain as an email.received event and activity item, and starts a workflow', async () => {
    const { sk, project } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('inbound'));
    const workflow = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'email.received',
      steps: { note: { type: 'UPDATE_CONTACT', config: { data: { wroteIn: true } } } },
    });
    const sender = `alice-${Date.now()}@example.com`;
    const transport = mailer();
    try {
      const info = await transport.sendMail({
        from: `Alice <${sender}>`,
        to: `support@${domain}`,
        subject: 'Where is my order?',
        text: 'Order A-17 has not arrived.',
        html: '<p>Order <b>A-17</b> has not arrived.</p>',
        attachments: [
          { filename: 'receipt.txt', content: 'receipt body', contentType: 'text/plain' },
        ],
      });
      expect(info.accepted).toEqual([`support@${domain}`]);
    } finally {
      transport.close();
    }

    const events = await stack.api.get('/events?event=email.received', sk);
    expect(events.status, events.text).toBe(200);
    expect(events.body.data).toHaveLength(1);
    const [event] = events.body.data;
    expect(event.data).toMatchObject({
      from: sender,
      fromName: 'Alice',
      to: [`support@${domain}`],
      subject: 'Where is my order?',
      text: expect.stringContaining('Order A-17'),
      html: expect.stringContaining('<b>A-17</b>'),
      attachments: [{ filename: 'receipt.txt', contentType: 'text/plain', size: 12 }],
    });
    // The whole message is kept under DATA_DIR.
    await access(path.join(stack.env.DATA_DIR as string, event.data.storageKey));

    const contact = await stack.api.get(`/contacts/${event.contactId}`, sk);
    expect(contact.status, contact.text).toBe(200);
    expect(contact.body).toMatchObject({ email: sender, subscribed: false });

    const feed = await stack.api.get('/activity?type=inbound', sk);
    expect(feed.body.total).toBe(1);
    expect(feed.body.data[0]).toMatchObject({
      type: 'inbound',
      contact: { email: sender },
      subject: 'Where is my order?',
    });
    const [execution] = await waitForExecutions(stack.api, sk, workflow.id);
    expect(execution).toMatchObject({ contactId: contact.body.id });

    const inboundRows = await withDatabase(
      async (db) =>
        (
          await db.query(
            `SELECT count(*)::int AS n FROM events WHERE project_id = $1 AND name = 'email.received'`,
            [project.id],
          )
        ).rows[0].n,
    );
    expect(inboundRows).toBe(1);
  });

  it('keeps a message whose text PostgreSQL cannot store, cleaned of it', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('inbound'));
    const transport = mailer();
    try {
      const info = await transport.sendMail({
        from: `Nul\u0000 Name <nul-${Date.now()}@example.com>`,
        to: `support@${domain}`,
        subject: 'Where\u0000 is it?',
        text: 'A NUL\u0000 here.',
        attachments: [{ filename: 'a\u0000.txt', content: 'x', contentType: 'text/plain' }],
      });
      expect(info.accepted).toEqual([`support@${domain}`]);
    } finally {
      transport.close();
    }
    const events = await stack.api.get('/events?event=email.received', sk);
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0].data).toMatchObject({
      fromName: 'Nul Name',
      subject: 'Where is it?',
      text: expect.stringContaining('A NUL here.'),
      attachments: [{ filename: 'a.txt' }],
    });
  });

  it('refuses other domains at RCPT and messages over the size limit, keeping nothing', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('inbound2'));
    const transport = mailer();
    try {
      const elsewhere = transport.sendMail({
        from: 'bob@example.com',
        to: 'someone@not-ours.example.test',
        subject: 'Relay?',
        text: 'x',
      });
      await expect(elsewhere).rejects.toMatchObject({ responseCode: 550 });

      // A raw message of exactly `bytes` bytes (CRLF lines, no encoding to change its size).
      const rawOf = (subject: string, bytes: number): string => {
        const head = `From: bob@example.com\r\nTo: support@${domain}\r\nSubject: ${subject}\r\n\r\n`;
        const body = Array.from({ length: bytes }, (_, i) => ((i + 1) % 80 === 0 ? '\n' : 'x'));
        const text = (head + body.join('')).replace(/\r?\n/g, '\r\n');
        return text.slice(0, bytes - 2) + '\r\n';
      };
      const envelope = { from: 'bob@example.com', to: [`support@${domain}`] };
      const tooBig = transport.sendMail({ envelope, raw: rawOf('Big', MAX_BYTES + 1) });
      await expect(tooBig).rejects.toMatchObject({ responseCode: 552 });
      const fits = await transport.sendMail({ envelope, raw: rawOf('Fits', MAX_BYTES) });
      expect(fits.accepted).toHaveLength(1);
    } finally {
      transport.close();
    }
    const events = await stack.api.get('/events?event=email.received', sk);
    expect(events.body.data.map((e: any) => e.data.subject)).toEqual(['Fits']);
  });

  it('survives clients that cut their connection mid-transaction (the API keeps answering)', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('inbound3'));
    // Each client resets its TCP connection after MAIL FROM and RCPT TO, mid-DATA: the receiver
    // reports the reset as an error, which once reached no listener and ended the process.
    for (let i = 0; i < 3; i += 1) {
      const socket = net.connect(inboundPort, '127.0.0.1');
      await once(socket, 'connect');
      const lines = [
        'EHLO client.test',
        'MAIL FROM:<bob@example.com>',
        `RCPT TO:<support@${domain}>`,
        'DATA',
        'Subject: cut',
      ];
      socket.write(lines.join('\r\n') + '\r\n');
      await eventually(() => (socket.bytesRead > 0 ? true : undefined), {
        what: 'the receiver to answer',
      });
      await new Promise((resolve) => setTimeout(resolve, 200)); // let the commands arrive
      socket.resetAndDestroy();
    }
    const health = await stack.api.get('/health');
    expect(health.status).toBe(200);
    // And it still receives mail.
    const transport = mailer();
    try {
      const sent = await transport.sendMail({
        from: 'bob@example.com',
        to: `support@${domain}`,
        subject: 'After the resets',
        text: 'x',
      });
      expect(sent.accepted).toHaveLength(1);
    } finally {
      transport.close();
    }
  });
});
