import type { Socket } from 'node:net';

/** One SMTP reply (RFC 5321 4.2): its code, and its lines' texts, apart and joined with a space. */
export interface SmtpReply {
  code: number;
  lines: string[];
  text: string;
}

const REPLY_LINE = /^[2-5]\d\d(?:[ -]|$)/;
const MAX_LINE = 64 * 1024;

/** `550 5.1.1 user unknown` as an error message and a refusal's words carry it. */
export const replyLine = (reply: SmtpReply): string => `${reply.code} ${reply.text}`.trimEnd();

/**
 * Reads a socket's replies in order. `next()` answers the next whole reply (multi-line replies
 * joined); a closed, timed-out or failed socket rejects every reply still awaited and every later
 * one with the reason. Replies to pipelined commands queue up until they are asked for.
 */
export function replyReader(socket: Socket) {
  let partial = '';
  let lines: string[] = [];
  const ready: SmtpReply[] = [];
  const waiting: { resolve: (reply: SmtpReply) => void; reject: (error: Error) => void }[] = [];
  let ended: Error | undefined;

  const onData = (chunk: Buffer): void => {
    const text = partial + chunk.toString('latin1');
    let start = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', start)) {
      const line = text.slice(start, text[at - 1] === '\r' ? at - 1 : at);
      start = at + 1;
      // Anything but a reply would put every later reply out of step with its command.
      if (!REPLY_LINE.test(line)) {
        end(new Error(`The server answered out of protocol: ${line.slice(0, 200)}`));
        socket.destroy();
        return;
      }
      lines.push(line.slice(4));
      // "250-" continues a reply, "250 " (or a bare "250") ends it.
      if (line[3] === '-') continue;
      const reply = { code: Number(line.slice(0, 3)), lines, text: lines.join(' ') };
      lines = [];
      const waiter = waiting.shift();
      if (waiter) waiter.resolve(reply);
      else ready.push(reply);
    }
    partial = text.slice(start);
    if (partial.length > MAX_LINE) {
      end(new Error('The server answered out of protocol: a line without end'));
      socket.destroy();
    }
  };
  const end = (error: Error): void => {
    ended ??= error;
    for (const waiter of waiting.splice(0)) waiter.reject(ended);
  };
  const onError = (error: Error): void => end(error);
  const onClose = (): void => end(new Error('Connection closed by the server'));
  const onTimeout = (): void => {
    end(new Error('Timed out waiting for the server'));
    socket.destroy();
  };
  socket.on('data', onData);
  socket.on('error', onError);
  socket.on('close', onClose);
  socket.on('timeout', onTimeout);

  return {
    next(): Promise<SmtpReply> {
      const reply = ready.shift();
      if (reply) return Promise.resolve(reply);
      if (ended) return Promise.reject(ended);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    /** Stops reading (before the socket is handed to TLS). */
    detach(): void {
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      socket.off('timeout', onTimeout);
    },
  };
}

export type ReplyReader = ReturnType<typeof replyReader>;
