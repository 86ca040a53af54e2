import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMessage {
  id: string;
  from: string;
  to: string[];
  raw: Buffer;
  receivedAt: Date;
}

export interface SmtpSinkHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * An error with `responseCode` makes the server answer with that SMTP code (e.g. 451).
 * `closed()` tells whether the client hung up before the answer: an MTA keeps only what it
 * acknowledged.
 */
export type SmtpDataHandler = (
  message: ReceivedMessage,
  connection: { closed: () => boolean },
) => Promise<void> | void;

/**
 * A real SMTP server that accepts every message (any credentials, no TLS) and hands it over
 * whole. `npm start` uses it as the local mail sink; the tests use it to read what was sent.
 */
export async function startSmtpSink({
  port = 0,
  host = '127.0.0.1',
  mailDir,
  onMessage,
  onSender,
}: {
  port?: number;
  host?: string;
  mailDir?: string;
  onMessage?: SmtpDataHandler;
  /** Answers MAIL FROM: an error with `responseCode` refuses the sender with that code. */
  onSender?: (address: string) => void;
}): Promise<SmtpSinkHandle> {
  if (mailDir) await mkdir(mailDir, { recursive: true });
  const closed = new Set<string>();
  const server = new SMTPServer({
    onClose: (session) => {
      closed.add(session.id);
    },
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 60 * 1024 * 1024,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'sink' }),
    onMailFrom(address, _session, callback) {
      try {
        onSender?.(address.address);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const message: ReceivedMessage = {
          id: randomUUID(),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
          receivedAt: new Date(),
        };
        const persist = mailDir
          ? writeFile(
              path.join(
                mailDir,
                `${message.receivedAt.toISOString().replace(/[:.]/g, '-')}-${message.id}.eml`,
              ),
              message.raw,
            )
          : Promise.resolve();
        persist
          .then(() => onMessage?.(message, { closed: () => closed.has(session.id) }))
          .then(
            () => callback(),
            (error: Error) => callback(error),
          );
      });
    },
  });
  // A client's connection failing must not end the process that runs the sink.
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `smtp://${host}:${boundPort}`,
    port: boundPort,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
