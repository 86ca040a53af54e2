import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import { sendEmails, type SendDeps } from '../domain/sending/send.service.js';
import { RECIPIENTS_MAX } from '../domain/sending/send-limits.pure.js';
import { DomainError } from '../domain/shared/errors.js';
import type { RateLimiter } from '../domain/shared/ports.js';
import {
  acceptedReply,
  replyForRefusal,
  SMTP_REPLIES,
  SmtpRefusal,
  type SmtpReply,
} from '../domain/submission/smtp-reply.pure.js';
import {
  authenticateSubmission,
  confirmLogin,
  senderDomains,
  startSubmission,
  type SubmissionLogin,
} from '../domain/submission/submission.service.js';
import type { Sql } from '../db/sql/sql.js';
import type { Logger } from './logger.js';
import { listenUnlessTaken } from './optional-listen.js';
import { submissionInput } from './submission-request.js';
import type { SubmissionTls } from './submission-tls.js';

export interface SubmissionSmtpHandle {
  /** The STARTTLS port, when it listens. */
  port?: number;
  /** The implicit-TLS port, when it listens. */
  tlsPort?: number;
  close(): Promise<void>;
}

export interface SubmissionDeps {
  sql: Sql;
  sending: SendDeps;
  rateLimiter: RateLimiter;
}

const answer = (reply: SmtpReply): Error =>
  Object.assign(new Error(reply.message), { responseCode: reply.code });

/** Who an authenticated session sends for (smtp-server keeps it as `session.user`). */
const loginOf = (session: SMTPServerSession): SubmissionLogin => session.user as SubmissionLogin;

/**
 * SMTP submission for apps that only speak SMTP: one server with STARTTLS (AUTH is refused before
 * it, 538) and one with implicit TLS, sharing the handlers. AUTH PLAIN/LOGIN takes the project's
 * secret key (see authenticateSubmission); each message's envelope recipients become emails on
 * the path of POST /v1/send (sendEmails), one email each; every refusal is an SMTP answer (see
 * replyForRefusal).
 */
export async function startSubmissionSmtp({
  deps,
  host,
  port,
  tlsPort,
  tls,
  serverName,
  maxBytes,
  logger,
  optionalPorts = false,
}: {
  deps: SubmissionDeps;
  /** The address to listen on. */
  host: string;
  port?: number;
  tlsPort?: number;
  tls: SubmissionTls;
  /** The name the server greets with (the host clients are told to use). */
  serverName: string;
  maxBytes: number;
  logger: Logger;
  /** The ports were picked by `npm start`: one taken since is skipped (see listenUnlessTaken). */
  optionalPorts?: boolean;
}): Promise<SubmissionSmtpHandle> {
  // The envelope recipients of each SMTP session's current message.
  const recipients = new Map<string, string[]>();
  // Each session's project's verified domains, read at its first MAIL FROM: the envelope sender
  // is an early refusal, while the From header is checked afresh with every message.
  const domains = new Map<string, Promise<{ id: string; domain: string }[]>>();
  const domainsOf = (session: SMTPServerSession) => () => {
    let known = domains.get(session.id);
    if (!known) {
      known = senderDomains({ sql: deps.sql, projectId: loginOf(session).projectId });
      known.catch(() => domains.delete(session.id));
      domains.set(session.id, known);
    }
    return known;
  };

  // Each session's check that its login still holds, for its current message: started at MAIL
  // FROM, so it runs while the client sends the message, and awaited before anything is written.
  const logins = new Map<string, Promise<void>>();

  const refusalReply = (error: unknown, what: string): SmtpReply => {
    if (error instanceof SmtpRefusal) return error.reply;
    if (error instanceof DomainError) return replyForRefusal(error);
    logger.error({ err: error }, `smtp submission: ${what} failed`);
    return SMTP_REPLIES.unavailable;
  };

  const handlers: Partial<SMTPServerOptions> = {
    name: serverName,
    banner: 'Mailwright SMTP submission',
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: false,
    authOptional: false,
    logger: false,
    // Clients are apps with keys, not mail servers: their hostnames are of no use here.
    disableReverseLookup: true,
    size: maxBytes,
    key: tls.key,
    cert: tls.cert,
    // In-flight messages get this long to finish when the API stops.
    closeTimeout: 10_000,
    onAuth(auth, session, callback) {
      authenticateSubmission({
        sql: deps.sql,
        password: auth.password ?? '',
        ip: session.remoteAddress,
      }).then(
        (login) => callback(null, { user: login }),
        (error: unknown) => {
          if (error instanceof SmtpRefusal) {
            callback(answer(error.reply));
            return;
          }
          logger.error({ err: error }, 'smtp submission: AUTH failed');
          callback(answer(SMTP_REPLIES.authUnavailable));
        },
      );
    },
    onMailFrom(address, session, callback) {
      recipients.set(session.id, []);
      const login = loginOf(session);
      const confirmed = confirmLogin({ sql: deps.sql, login });
      // Awaited with the message; a session that ends first leaves its rejection unread.
      confirmed.catch(() => undefined);
      logins.set(session.id, confirmed);
      startSubmission({
        rateLimiter: deps.rateLimiter,
        projectId: login.projectId,
        sender: address.address,
        domains: domainsOf(session),
      }).then(
        () => callback(),
        (error: unknown) => callback(answer(refusalReply(error, 'MAIL FROM'))),
      );
    },
    onRcptTo(address, session, callback) {
      const list = recipients.get(session.id) ?? [];
      if (list.length >= RECIPIENTS_MAX) {
        callback(answer(SMTP_REPLIES.tooManyRecipients(RECIPIENTS_MAX)));
        return;
      }
      recipients.set(session.id, [...list, address.address]);
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      // Past the limit the rest is read and dropped: the answer is 552 whatever it holds.
      stream.on('data', (chunk: Buffer) => {
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(answer(SMTP_REPLIES.tooBig(maxBytes)));
          return;
        }
        const { projectId } = loginOf(session);
        Promise.all([
          logins.get(session.id),
          submissionInput({
            raw: Buffer.concat(chunks),
            recipients: recipients.get(session.id) ?? [],
          }),
        ])
          .then(([, input]) => sendEmails({ ...deps.sending, projectId, input }))
          .then(
            (result) => callback(null, acceptedReply(result.emails.map((e) => e.email))),
            (error: unknown) => callback(answer(refusalReply(error, 'a message'))),
          );
      });
    },
    onClose(session) {
      recipients.delete(session.id);
      domains.delete(session.id);
      logins.delete(session.id);
    },
  };

  const listen = async (secure: boolean, at: number): Promise<SMTPServer> => {
    const server = new SMTPServer({ ...handlers, secure });
    // A client's failed handshake or dropped connection surfaces here; it concerns that client only.
    server.on('error', (error) => logger.warn({ err: error }, 'smtp submission connection error'));
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(at, host, () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    return server;
  };
  const portOf = (server: SMTPServer | undefined): number | undefined => {
    const address = server?.server.address();
    return typeof address === 'object' && address ? address.port : undefined;
  };
  const close = (server: SMTPServer | undefined): Promise<void> =>
    server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();

  const listenOn = (secure: boolean, at: number | undefined): Promise<SMTPServer | undefined> =>
    at === undefined
      ? Promise.resolve(undefined)
      : listenUnlessTaken({
          optional: optionalPorts,
          what: `SMTP submission with ${secure ? 'implicit TLS' : 'STARTTLS'}`,
          port: at,
          logger,
          listen: () => listen(secure, at),
        });
  const startTls = await listenOn(false, port);
  let implicit: SMTPServer | undefined;
  try {
    implicit = await listenOn(true, tlsPort);
  } catch (error) {
    await close(startTls);
    throw error;
  }
  return {
    port: portOf(startTls),
    tlsPort: portOf(implicit),
    close: async () => {
      await Promise.all([close(startTls), close(implicit)]);
    },
  };
}
