import nodemailer from 'nodemailer';
import { buildLeanMessage, canBuildLean, envelopeOf } from '../domain/sending/mime-message.js';
import { MailDeliveryError, type Mailer, type OutgoingMessage } from '../domain/shared/ports.js';

/** A pooled SMTP transport from SMTP_URL (smtp:// or smtps://, credentials in the URL). */
export function createSmtpMailer({
  url,
  poolSize = 5,
}: {
  url: string;
  poolSize?: number;
}): Mailer & { close(): void } {
  const parsed = new URL(url);
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: poolSize,
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
      try {
        // Most mail is built once as bytes, signed with the domain's parsed key, and written raw.
        const info = await transport.sendMail(
          canBuildLean(message)
            ? {
                envelope: envelopeOf(message),
                raw: await buildLeanMessage(message),
                messageId: message.messageId,
              }
            : message,
        );
        return { messageId: info.messageId };
      } catch (error) {
        const responseCode = (error as { responseCode?: number }).responseCode;
        // 5xx is a final answer; 4xx, timeouts and dropped connections are worth retrying.
        const permanent = typeof responseCode === 'number' && responseCode >= 500;
        throw new MailDeliveryError(
          error instanceof Error ? error.message : String(error),
          permanent,
          responseCode,
        );
      }
    },
    close: () => transport.close(),
  };
}
