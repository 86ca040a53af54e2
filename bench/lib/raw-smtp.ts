// The campaign bench's floor client: writes finished messages (built and DKIM-signed before the
// clock starts) over `connections` plain SMTP connections with PIPELINING (RFC 2920): a message's
// data and the next message's MAIL, RCPT and DATA go in one write, so each message costs one
// round trip. No TLS, no AUTH: it is only ever pointed at the bench's counting sink.
import net from 'node:net';
import nodemailer from 'nodemailer';
import type { OutgoingMessage } from '../../domain/shared/ports.js';

export interface RawMessage {
  from: string;
  to: string;
  /** The message as it goes after DATA: CRLF lines, dot-stuffed, ending with ".\r\n". */
  data: Buffer;
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
    const text = info.message.toString('latin1').replace(/(^|\r\n)\./g, '$1..');
    built.push({
      from: info.envelope.from,
      to: info.envelope.to[0] as string,
      data: Buffer.from(`${text}${text.endsWith('\r\n') ? '' : '\r\n'}.\r\n`, 'latin1'),
    });
  }
  return built;
}

const envelopeOf = (m: RawMessage): string =>
  `MAIL FROM:<${m.from}>\r\nRCPT TO:<${m.to}>\r\nDATA\r\n`;

/** Counts complete reply lines (a final line is "ddd " where multi-line ones are "ddd-"). */
function countFinalReplies(text: string): { finals: string[]; rest: string } {
  const lines = text.split('\r\n');
  const rest = lines.pop() ?? '';
  return { finals: lines.filter((l) => l[3] !== '-'), rest };
}

/** One connection: takes messages from `next()` until none is left. */
function runConnection(smtpUrl: string, next: () => RawMessage | undefined): Promise<void> {
  const { hostname, port } = new URL(smtpUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    socket.setNoDelay(true);
    let buffered = '';
    // Replies still expected before the next step, and what that step is.
    let expected = 1; // the greeting
    let step: 'greeting' | 'ehlo' | 'envelope' | 'data' = 'greeting';
    let current: RawMessage | undefined;
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      const { finals, rest } = countFinalReplies(buffered + chunk.toString('latin1'));
      buffered = rest;
      for (const reply of finals) {
        const code = reply.slice(0, 3);
        if (!/^[23]/.test(code)) {
          socket.destroy();
          reject(new Error(`sink answered ${reply}`));
          return;
        }
        expected -= 1;
        if (expected > 0) continue;
        switch (step) {
          case 'greeting':
            step = 'ehlo';
            expected = 1;
            socket.write('EHLO bench\r\n');
            break;
          case 'ehlo':
          case 'data': {
            const following = next();
            if (step === 'data' && !following) {
              socket.end('QUIT\r\n');
              resolve();
              return;
            }
            if (!following) {
              socket.end('QUIT\r\n');
              resolve();
              return;
            }
            current = following;
            step = 'envelope';
            expected = 3; // MAIL, RCPT, DATA (354)
            socket.write(envelopeOf(following));
            break;
          }
          case 'envelope': {
            const message = current as RawMessage;
            const following = next();
            if (following) {
              // The data, then the next envelope, in one write: 250 for the data, then 3 more.
              current = following;
              expected = 4;
              socket.write(Buffer.concat([message.data, Buffer.from(envelopeOf(following))]));
            } else {
              step = 'data';
              expected = 1;
              socket.write(message.data);
            }
            break;
          }
        }
      }
    });
  });
}

/** Writes `messages` over `connections` connections, each taking the next unsent message. */
export async function sendRawOverConnections(
  smtpUrl: string,
  messages: RawMessage[],
  connections: number,
): Promise<void> {
  let index = 0;
  const next = (): RawMessage | undefined => messages[index++];
  await Promise.all(Array.from({ length: connections }, () => runConnection(smtpUrl, next)));
}
