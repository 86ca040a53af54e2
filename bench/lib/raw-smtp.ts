// The benches' pipelining SMTP client: writes finished messages (built before the clock starts)
// over `connections` connections with PIPELINING (RFC 2920): MAIL, RCPT and DATA in one write, then
// a message's data and the next message's envelope in the next, so each message costs one round
// trip. Plain for bench:campaign's floor (pointed only at the bench's counting sink); with
// STARTTLS and AUTH PLAIN for bench:smtp's submission side, as lean as the /v1/send side's client.
// Every reply but 2xx/3xx fails the run.
import net from 'node:net';
import tls from 'node:tls';
import nodemailer from 'nodemailer';
import { dataChunks } from '../../runtime/smtp/smtp-data.js';
import { replyLine, replyReader, type ReplyReader } from '../../runtime/smtp/smtp-replies.js';
import type { OutgoingMessage } from '../../domain/shared/ports.js';

export interface RawMessage {
  from: string;
  to: string;
  /** The message as it goes after DATA: CRLF lines, dot-stuffed, ending with ".\r\n". */
  data: Buffer;
}

/** A finished MIME message (CRLF or LF lines) as DATA carries it (the engine's dot-stuffing). */
export function dataOf(raw: Buffer): Buffer {
  return Buffer.concat(
    dataChunks(Buffer.from(raw.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1')),
  );
}

/** Builds and signs each message as the worker would (nodemailer, DKIM), ready to write. */
export async function prebuildMessages(messages: OutgoingMessage[]): Promise<RawMessage[]> {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  const built: RawMessage[] = [];
  for (const message of messages) {
    const info = (await transport.sendMail(message)) as unknown as {
      message: Buffer;
      envelope: { from: string; to: string[] };
    };
    built.push({
      from: info.envelope.from,
      to: info.envelope.to[0] as string,
      data: dataOf(info.message),
    });
  }
  return built;
}

/** The next `count` replies, each of them 2xx or 3xx (anything else fails the run). */
async function replies(reader: ReplyReader, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const reply = await reader.next();
    if (reply.code >= 400) throw new Error(`the server answered ${replyLine(reply)}`);
  }
}

/** Where to connect, and for submission the TLS and the login to use. */
export interface SmtpTarget {
  host: string;
  port: number;
  /** STARTTLS, the server's certificate checked against `ca` (issued for localhost). */
  starttls?: { ca: string };
  /** AUTH PLAIN, after STARTTLS. */
  auth?: { user: string; pass: string };
}

async function runConnection(
  { host, port, starttls, auth }: SmtpTarget,
  next: () => RawMessage | undefined,
): Promise<void> {
  const plain = net.connect(port, host);
  plain.setNoDelay(true);
  let socket: net.Socket = plain;
  let reader = replyReader(plain);
  await replies(reader, 1);
  plain.write('EHLO bench\r\n');
  await replies(reader, 1);
  if (starttls) {
    plain.write('STARTTLS\r\n');
    await replies(reader, 1);
    reader.detach();
    const secure = tls.connect({ socket: plain, ca: starttls.ca, servername: 'localhost' });
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', reject);
    });
    socket = secure;
    reader = replyReader(secure);
    secure.write('EHLO bench\r\n');
    await replies(reader, 1);
  }
  if (auth) {
    socket.write(
      `AUTH PLAIN ${Buffer.from(`\0${auth.user}\0${auth.pass}`).toString('base64')}\r\n`,
    );
    await replies(reader, 1);
  }
  const envelopeOf = (m: RawMessage): string =>
    `MAIL FROM:<${m.from}>\r\nRCPT TO:<${m.to}>\r\nDATA\r\n`;
  let current = next();
  if (current) {
    socket.write(envelopeOf(current));
    await replies(reader, 3);
  }
  while (current) {
    const following = next();
    // The data (250), then the next message's MAIL, RCPT and DATA (354) in the same write.
    socket.write(
      following ? Buffer.concat([current.data, Buffer.from(envelopeOf(following))]) : current.data,
    );
    await replies(reader, following ? 4 : 1);
    current = following;
  }
  socket.end('QUIT\r\n');
}

/** Writes `messages` over `connections` connections, each taking the next unsent message. */
export async function sendRawOverConnections({
  messages,
  connections,
  ...target
}: SmtpTarget & { messages: RawMessage[]; connections: number }): Promise<void> {
  let index = 0;
  const next = (): RawMessage | undefined => messages[index++];
  await Promise.all(Array.from({ length: connections }, () => runConnection(target, next)));
}
