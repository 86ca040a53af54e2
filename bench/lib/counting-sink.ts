// A counting SMTP sink in its own process, as the peer's bench has: it speaks just enough SMTP
// (EHLO with PIPELINING, MAIL, RCPT, DATA, RSET, NOOP, QUIT; AUTH accepted) to take messages, and
// only counts them: no parsing, no disk. Each message's end (CRLF.CRLF) is answered 250 at once.
// Run as a script it listens and answers its parent's questions over IPC; startCountingSink()
// starts it so.
import { fork, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export interface SinkCounts {
  count: number;
  /** Epoch milliseconds (sub-millisecond precision) of the first and last message's end. */
  firstAt: number;
  lastAt: number;
}

export interface CountingSink {
  url: string;
  pid: number;
  counts(): Promise<SinkCounts>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

const END = Buffer.from('\r\n.\r\n');
const EHLO_REPLY =
  '250-sink\r\n250-PIPELINING\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 62914560\r\n';

function serve(onMessage: () => void): net.Server {
  return net.createServer((socket) => {
    socket.setNoDelay(true);
    let inData = false;
    let line = ''; // a command line not yet ended
    let tail = Buffer.alloc(0); // the last bytes of message data, for a terminator split across reads
    socket.write('220 sink ESMTP\r\n');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      let replies = '';
      let at = 0;
      while (at < chunk.length) {
        if (inData) {
          // The terminator may straddle the previous read: look at its last 4 bytes too.
          const joined = tail.length
            ? Buffer.concat([tail, chunk.subarray(at)])
            : chunk.subarray(at);
          const found = joined.indexOf(END);
          if (found === -1) {
            tail = Buffer.from(joined.subarray(Math.max(0, joined.length - 4)));
            at = chunk.length;
            break;
          }
          at += found + END.length - tail.length;
          tail = Buffer.alloc(0);
          inData = false;
          onMessage();
          replies += '250 2.0.0 OK\r\n';
          continue;
        }
        const nl = chunk.indexOf(10, at);
        if (nl === -1) {
          line += chunk.toString('latin1', at);
          break;
        }
        line += chunk.toString('latin1', at, nl + 1);
        at = nl + 1;
        const verb = line.slice(0, 4).toUpperCase();
        line = '';
        if (verb === 'EHLO') replies += EHLO_REPLY;
        else if (verb === 'DATA') {
          replies += '354 go ahead\r\n';
          inData = true;
          // The message data begins right after DATA's line; an empty message ends at ".\r\n".
          tail = Buffer.from('\r\n');
        } else if (verb === 'AUTH') replies += '235 2.7.0 OK\r\n';
        else if (verb === 'QUIT') {
          socket.end(`${replies}221 bye\r\n`);
          return;
        } else replies += '250 OK\r\n';
      }
      if (replies) socket.write(replies);
    });
  });
}

/** Starts the sink in a process of its own; its counts come over IPC. */
export async function startCountingSink(): Promise<CountingSink> {
  const child: ChildProcess = fork(import.meta.filename, ['--serve'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies: ((value: unknown) => void)[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`counting sink exited (${code})`)));
    child.once('message', (m) => resolve((m as { port: number }).port));
  });
  child.on('message', (m) => replies.shift()?.(m));
  const ask = <T>(question: string): Promise<T> =>
    new Promise<T>((resolve) => {
      replies.push(resolve as (value: unknown) => void);
      child.send(question);
    });
  return {
    url: `smtp://127.0.0.1:${port}`,
    pid: child.pid as number,
    counts: () => ask<SinkCounts>('counts'),
    reset: async () => {
      await ask('reset');
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.argv.includes('--serve') && process.send) {
  const counts: SinkCounts = { count: 0, firstAt: 0, lastAt: 0 };
  const server = serve(() => {
    counts.lastAt = performance.timeOrigin + performance.now();
    if (counts.count === 0) counts.firstAt = counts.lastAt;
    counts.count += 1;
  });
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as net.AddressInfo).port });
  });
  process.on('message', (question) => {
    if (question === 'reset') {
      counts.count = 0;
      counts.firstAt = 0;
      counts.lastAt = 0;
    }
    process.send?.(question === 'counts' ? counts : 'ok');
  });
  process.on('disconnect', () => process.exit(0));
}
