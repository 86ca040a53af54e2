import type { Socket } from 'node:net';

/** One SMTP reply (RFC 5321 4.2): its code, and its lines' texts, apart and joined with a space. */
export interface SmtpReply {
  code: number;
  lines: string[];
  text: string;
}

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
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const line = text.slice(start, text[end - 1] === '\r' ? end - 1 : end);
      start = end + 1;
      lines.push(line.slice(4));
      // "250-" continues a reply, "250 " (or a bare "250") ends it.
      if (line[3] === '-') continue;
      const code = Number(line.slice(0, 3));
      const reply = { code: Number.isInteger(code) ? code : 0, lines, text: lines.join(' ') };
      lines = [];
      const waiter = waiting.shift();
      if (waiter) waiter.resolve(reply);
      else ready.push(reply);
    }
    partial = text.slice(start);
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
