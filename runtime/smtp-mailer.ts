import nodemailer from 'nodemailer';
import type { Mailer, OutgoingMessage } from '../domain/shared/ports.js';

/** A pooled SMTP transport from SMTP_URL (smtp:// or smtps://, credentials in the URL). */
export function createSmtpMailer({ url }: { url: string }): Mailer & { close(): void } {
  const parsed = new URL(url);
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: 5,
    host: parsed.hostname,
    port: Number(parsed.port || (parsed.protocol === 'smtps:' ? 465 : 587)),
    secure: parsed.protocol === 'smtps:',
    auth: parsed.username
      ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
      : undefined,
    // Local sinks and test servers have no certificate worth checking.
    tls: { rejectUnauthorized: !['127.0.0.1', 'localhost', '::1'].includes(parsed.hostname) },
  });
  return {
    async send(message: OutgoingMessage) {
      const info = await transport.sendMail(message);
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}
