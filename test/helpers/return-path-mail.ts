import nodemailer from 'nodemailer';
import { expect } from 'vitest';
import type { DnsServer } from './dns-server.js';
import { uniqueDomain, verifiedDomain } from './domains.js';
import { uniqueEmail } from './factories.js';
import type { Client } from './http.js';
import type { SmtpCapture } from './smtp-capture.js';

/**
 * A verified domain of the project whose return path is in place (verifiedDomain publishes every
 * advised record, the return-path MX among them when the stack receives inbound mail).
 */
export async function returnPathDomain(
  api: Client,
  dns: DnsServer,
  sk: { key: string },
  label: string,
): Promise<string> {
  const { domain } = await verifiedDomain(api, dns, sk.key, uniqueDomain(label));
  return domain;
}

/** One email sent from `domain` and caught by the SMTP test server, with its return path. */
export async function sentWithReturnPath({
  api,
  smtp,
  sk,
  domain,
  to = uniqueEmail('reader'),
}: {
  api: Client;
  smtp: SmtpCapture;
  sk: { key: string };
  domain: string;
  to?: string;
}) {
  const res = await api.post('/v1/send', {
    ...sk,
    body: { to, subject: 'Return path', body: '<p>b</p>', from: `news@${domain}` },
  });
  expect(res.status, res.text).toBe(200);
  const emailId: string = res.body.data.emails[0].email;
  const captured = await smtp.waitFor((m) => m.to.includes(to));
  expect(captured.from.endsWith(`@rp.${domain}`)).toBe(true);
  return { to, emailId, returnPath: captured.from, captured };
}

/** Hands a raw message to the inbound receiver over SMTP, as a remote mail system would. */
export async function deliverToInbound({
  port,
  raw,
  rcpt,
}: {
  port: number;
  raw: string;
  rcpt: string;
}): Promise<void> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
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
