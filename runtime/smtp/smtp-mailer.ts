import nodemailer from 'nodemailer';
import { buildLeanMessage, canBuildLean, envelopeOf } from '../../domain/sending/mime-message.js';
import { MailDeliveryError, type Mailer, type OutgoingMessage } from '../../domain/shared/ports.js';
import { SENDER_REFUSED, createSmtpPool, type RawMail } from './smtp-pool.js';
import { SmtpReplyError } from './smtp-session.js';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1', '[::1]'];
const UNSAFE_IN_ENVELOPE = /[\r\n<>]/;

// Builds what the lean builder cannot (attachments, headers that need encoding) with nodemailer's
// composer and DKIM signer, into one buffer.
const composer = nodemailer.createTransport({
  streamTransport: true,
  buffer: true,
  newline: 'windows',
});

async function rawMailOf(
  message: OutgoingMessage,
  envelope: ReturnType<typeof envelopeOf>,
): Promise<RawMail> {
  if (canBuildLean(message)) {
    return {
      from: envelope.from,
      to: envelope.to[0] as string,
      message: await buildLeanMessage(message),
    };
  }
  const built = (await composer.sendMail(message)) as unknown as {
    message: Buffer;
    envelope: { from: string; to: string[] };
  };
  return { from: built.envelope.from, to: built.envelope.to[0] as string, message: built.message };
}

/**
 * Delivers through the relay at SMTP_URL (smtp:// with STARTTLS when offered, or smtps://;
 * credentials in the URL) over `poolSize` pooled connections.
 */
export function createSmtpMailer({
  url,
  poolSize = 5,
}: {
  url: string;
  poolSize?: number;
}): Mailer & { close(): void } {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'smtps:';
  const pool = createSmtpPool({
    connections: poolSize,
    target: {
      host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(parsed.port || (secure ? 465 : 587)),
      secure,
      auth: parsed.username
        ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
        : undefined,
      // Local sinks and test servers have no certificate worth checking.
      rejectUnauthorized: !LOOPBACK_HOSTS.includes(parsed.hostname),
      timeoutMs: 120_000,
    },
  });
  return {
    async send(message: OutgoingMessage) {
      const envelope = envelopeOf(message);
      // A line break or bracket would end the command and start another (SMTP injection).
      if (UNSAFE_IN_ENVELOPE.test(envelope.from + envelope.to.join('')))
        throw new MailDeliveryError('Refused: an envelope address holds CR, LF, < or >', true);
      try {
        await pool.send(await rawMailOf(message, envelope));
      } catch (error) {
        const responseCode = error instanceof SmtpReplyError ? error.reply.code : undefined;
        // 5xx is a final answer; 4xx, timeouts and dropped connections are worth retrying.
        const permanent = typeof responseCode === 'number' && responseCode >= 500;
        throw new MailDeliveryError(
          error instanceof Error ? error.message : String(error),
          permanent,
          responseCode,
          error instanceof SmtpReplyError && error.stage === SENDER_REFUSED,
        );
      }
      return { messageId: message.messageId ?? '' };
    },
    close: () => pool.close(),
  };
}
