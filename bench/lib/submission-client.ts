// bench:smtp's lean client: as little client work per message as the protocol allows, as the
// /v1/send side posts with node's own http client. Per connection: EHLO, STARTTLS (the server's
// certificate checked against `ca`), EHLO again, AUTH PLAIN; then each message as one pipelined
// group (RFC 2920): MAIL, RCPT and DATA in one write, the message data (built and dot-stuffed
// before the clock starts) and the next message's envelope in the next, so a message costs one
// round trip, as a request does. Every reply but 2xx/3xx fails the run.
import net from 'node:net';
import tls from 'node:tls';

export interface SubmissionMessage {
  from: string;
  to: string;
  /** The message as it goes after DATA: CRLF lines, dot-stuffed, ending with ".\r\n". */
  data: Buffer;
}

/** A finished MIME message (CRLF or LF lines) as DATA carries it. */
export function dataOf(raw: Buffer): Buffer {
  const text = raw
    .toString('latin1')
    .replace(/\r?\n/g, '\r\n')
    .replace(/(^|\r\n)\./g, '$1..');
  return Buffer.from(`${text}${text.endsWith('\r\n') ? '' : '\r\n'}.\r\n`, 'latin1');
}

/** A socket's SMTP replies, read as they come: `replies(n)` answers the next n final lines. */
function replyReader(socket: net.Socket) {
  let buffered = '';
  const finals: string[] = [];
  let waiting:
    { count: number; resolve: (r: string[]) => void; reject: (e: Error) => void } | undefined;
  let failed: Error | undefined;
  const settle = (): void => {
    if (!waiting) return;
    if (failed) {
      waiting.reject(failed);
      waiting = undefined;
      return;
    }
    if (finals.length < waiting.count) return;
    const { count, resolve } = waiting;
    waiting = undefined;
    resolve(finals.splice(0, count));
  };
  const onData = (chunk: Buffer): void => {
    const lines = (buffered + chunk.toString('latin1')).split('\r\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (line[3] === '-') continue;
      if (!/^[23]/.test(line)) failed ??= new Error(`the server answered ${line}`);
      finals.push(line);
    }
    settle();
  };
  const onError = (error: Error): void => {
    failed ??= error;
    settle();
  };
  socket.on('data', onData);
  socket.on('error', onError);
  return {
    replies(count: number): Promise<string[]> {
      return new Promise((resolve, reject) => {
        waiting = { count, resolve, reject };
        settle();
      });
    },
    detach(): void {
      socket.off('data', onData);
      socket.off('error', onError);
    },
  };
}

async function runConnection({
  host,
  port,
  ca,
  user,
  pass,
  next,
}: {
  host: string;
  port: number;
  ca: string;
  user: string;
  pass: string;
  next: () => SubmissionMessage | undefined;
}): Promise<void> {
  const plain = net.connect(port, host);
  const before = replyReader(plain);
  await before.replies(1);
  plain.write('EHLO bench\r\n');
  await before.replies(1);
  plain.write('STARTTLS\r\n');
  await before.replies(1);
  before.detach();
  const socket = tls.connect({ socket: plain, ca, servername: 'localhost' });
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    socket.once('secureConnect', resolve);
    socket.once('error', reject);
  });
  const reader = replyReader(socket);
  socket.write('EHLO bench\r\n');
  await reader.replies(1);
  socket.write(`AUTH PLAIN ${Buffer.from(`\0${user}\0${pass}`).toString('base64')}\r\n`);
  await reader.replies(1);
  const envelopeOf = (m: SubmissionMessage): string =>
    `MAIL FROM:<${m.from}>\r\nRCPT TO:<${m.to}>\r\nDATA\r\n`;
  let current = next();
  if (current) {
    socket.write(envelopeOf(current));
    await reader.replies(3);
  }
  while (current) {
    const following = next();
    // The data (250), then the next message's MAIL, RCPT and DATA (354) in the same write.
    socket.write(
      following ? Buffer.concat([current.data, Buffer.from(envelopeOf(following))]) : current.data,
    );
    await reader.replies(following ? 4 : 1);
    current = following;
  }
  socket.end('QUIT\r\n');
}

/** Submits `messages` over `connections` connections, each taking the next unsent message. */
export async function submitOverConnections({
  messages,
  connections,
  ...server
}: {
  host: string;
  port: number;
  ca: string;
  user: string;
  pass: string;
  messages: SubmissionMessage[];
  connections: number;
}): Promise<void> {
  let index = 0;
  const next = (): SubmissionMessage | undefined => messages[index++];
  await Promise.all(Array.from({ length: connections }, () => runConnection({ ...server, next })));
}
