import { SMTPServer } from 'smtp-server';
import {
  inboundProjectOf,
  InboundRefused,
  receiveInboundMail,
  type InboundDeps,
} from '../domain/inbound/inbound.service.js';
import {
  receiveReport,
  returnPathProjectOf,
  type ReportDeps,
} from '../domain/inbound/return-path-report.service.js';
import type { Logger } from './logger.js';

export interface InboundSmtpHandle {
  port: number;
  close(): Promise<void>;
}

const smtpError = (message: string, responseCode: number): Error =>
  Object.assign(new Error(message), { responseCode });

/**
 * The inbound SMTP receiver (INBOUND_SMTP_PORT): accepts mail for the verified domains of a
 * project (anything else is refused at RCPT), up to `maxBytes` (552 beyond), and keeps each
 * message once per project it reached (see receiveInboundMail). Mail to a return-path address
 * (`<token>@<prefix>.<verified domain>`) is a bounce or complaint report instead, read and kept
 * once per such recipient (see receiveReport), never an `email.received`. A failure to keep it
 * is a 451, so the sending server tries again later.
 */
export async function startInboundSmtp({
  deps,
  host,
  port,
  maxBytes,
  logger,
}: {
  deps: InboundDeps & Pick<ReportDeps, 'secret' | 'returnPathPrefix'>;
  host: string;
  port: number;
  maxBytes: number;
  logger: Logger;
}): Promise<InboundSmtpHandle> {
  const routeRecipient = async (
    address: string,
  ): Promise<{ projectId?: string; report?: string }> => {
    const report = await returnPathProjectOf({ ...deps, address });
    return report ? { report } : { projectId: await inboundProjectOf({ sql: deps.sql, address }) };
  };
  // The project of each accepted recipient, per SMTP session.
  const recipients = new Map<string, Map<string, string[]>>();
  // The return-path recipients of each SMTP session, with their project.
  const reports = new Map<string, { projectId: string; address: string }[]>();
  const server = new SMTPServer({
    name: 'mailwright-inbound',
    banner: 'Mailwright inbound',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    size: maxBytes,
    onMailFrom(_address, session, callback) {
      recipients.set(session.id, new Map());
      reports.set(session.id, []);
      callback();
    },
    onRcptTo(address, session, callback) {
      routeRecipient(address.address).then(
        ({ projectId, report }) => {
          if (report) {
            reports.set(session.id, [
              ...(reports.get(session.id) ?? []),
              { projectId: report, address: address.address },
            ]);
            callback();
            return;
          }
          if (!projectId) {
            callback(smtpError('Relay denied: no such domain here', 550));
            return;
          }
          const byProject = recipients.get(session.id) ?? new Map<string, string[]>();
          byProject.set(projectId, [...(byProject.get(projectId) ?? []), address.address]);
          recipients.set(session.id, byProject);
          callback();
        },
        (error: Error) => {
          logger.error({ err: error }, 'inbound recipient lookup failed');
          callback(smtpError('Try again later', 451));
        },
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          callback(smtpError(`Message larger than ${maxBytes} bytes`, 552));
          return;
        }
        const raw = Buffer.concat(chunks);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const byProject = recipients.get(session.id) ?? new Map<string, string[]>();
        Promise.all([
          ...[...byProject].map(([projectId, to]) =>
            receiveInboundMail({ ...deps, projectId, raw, envelope: { from, to } }),
          ),
          ...(reports.get(session.id) ?? []).map(({ projectId, address }) =>
            receiveReport({ ...deps, projectId, raw, recipient: address }),
          ),
        ]).then(
          () => callback(),
          (error: Error) => {
            if (error instanceof InboundRefused) {
              callback(smtpError(error.message, 550));
              return;
            }
            logger.error({ err: error }, 'an inbound message could not be kept');
            callback(smtpError('Try again later', 451));
          },
        );
      });
    },
    onClose(session) {
      recipients.delete(session.id);
      reports.delete(session.id);
    },
  });
  // A client's connection failing is that client's problem: heard and logged, never left to
  // reach the process as an unhandled 'error' event.
  server.on('error', (error) => logger.warn({ err: error }, 'inbound SMTP connection error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
