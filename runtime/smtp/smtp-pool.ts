import type { Socket } from 'node:net';
import { dataChunks } from './smtp-data.js';
import {
  SmtpReplyError,
  expectReply,
  openSession,
  type SmtpSession,
  type SmtpTarget,
} from './smtp-session.js';
import { replyLine, type SmtpReply } from './smtp-replies.js';

// The delivery engine's SMTP client: a few long-lived connections that take messages from one
// queue. With PIPELINING (RFC 2920) a message costs one write and one round trip: its data and
// the next message's MAIL, RCPT and DATA go out together, and their replies come back together.

/** A finished message and its envelope. */
export interface RawMail {
  from: string;
  to: string;
  /** CRLF lines, not yet dot-stuffed. */
  message: Buffer;
}

interface Job extends RawMail {
  resolve(reply: SmtpReply): void;
  reject(error: Error): void;
  /** Times the job went back to the queue because its connection dropped before its data. */
  requeued: number;
}

export interface SmtpPoolOptions {
  target: SmtpTarget;
  connections: number;
  /** Messages per connection before it is closed and a fresh one opened. */
  messagesPerConnection?: number;
  /** How long a connection with nothing to send stays open. */
  idleMs?: number;
}

const CODE_CLOSING = 421;
const DATA_REPLY_TIMEOUT_MS = 600_000;
const REOPEN_AFTER_REFUSAL_MS = 1000;
const TRANSPORT_CLOSED = 'The mail transport is closed';

/** What a refusal of MAIL FROM is called (it concerns the sender, not the recipient). */
export const SENDER_REFUSED = 'Sender refused';

/** MAIL, RCPT and DATA: the replies each may get, and what a refusal at each is called. */
const ENVELOPE_STAGES: readonly { expected: readonly number[]; refused: string }[] = [
  { expected: [250], refused: SENDER_REFUSED },
  { expected: [250, 251], refused: 'Recipient refused' },
  { expected: [354], refused: 'Data refused' },
];

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** RFC 6531: an envelope with a UTF-8 address says so, when the server takes them. */
const utf8Parameter = (job: RawMail, session: SmtpSession): string =>
  session.smtputf8 && NON_ASCII.test(job.from + job.to) ? ' SMTPUTF8' : '';

const envelopeCommands = (job: RawMail, session: SmtpSession): string[] => [
  `MAIL FROM:<${job.from}>${utf8Parameter(job, session)}\r\n`,
  `RCPT TO:<${job.to}>\r\n`,
  'DATA\r\n',
];

/** A pool of SMTP connections to one relay; `send` answers the relay's reply to the data. */
export function createSmtpPool({
  target,
  connections,
  messagesPerConnection = 100,
  idleMs = 30_000,
}: SmtpPoolOptions) {
  const queue: Job[] = [];
  const idle: ((job: Job | undefined) => void)[] = [];
  let open = 0;
  let ready = 0;
  let closed = false;
  let refusedAt = 0;

  /** The next job for a connection; undefined after `idleMs` without one, or once `socket` closed. */
  const take = (socket: Socket): Promise<Job | undefined> => {
    const job = queue.shift();
    if (job || closed || socket.destroyed) return Promise.resolve(job);
    return new Promise((resolve) => {
      const done = (next: Job | undefined): void => {
        clearTimeout(timer);
        socket.off('close', gone);
        const at = idle.indexOf(done);
        if (at !== -1) idle.splice(at, 1);
        resolve(next);
      };
      // A connection the server closed while it waited takes no more jobs.
      const gone = (): void => done(undefined);
      const timer = setTimeout(gone, idleMs);
      socket.once('close', gone);
      idle.push(done);
    });
  };

  const enqueue = (job: Job, { first }: { first: boolean }): void => {
    if (closed) return job.reject(new Error(TRANSPORT_CLOSED));
    const waiter = idle.shift();
    if (waiter) return waiter(job);
    // A server that refused a connection lately (its limit, say) is not asked for another at
    // every message while connections it took are open.
    const mayOpen = ready === 0 || Date.now() - refusedAt > REOPEN_AFTER_REFUSAL_MS;
    if (open < connections && mayOpen) {
      open++;
      void runConnection(job);
      return;
    }
    if (first) queue.unshift(job);
    else queue.push(job);
  };

  /** A job whose data never left: another connection may take it, once more at most. */
  const retryElsewhere = (job: Job, error: Error): void => {
    if (job.requeued >= 1 || closed) return job.reject(error);
    job.requeued++;
    enqueue(job, { first: true });
  };

  /** Sends jobs until none is left or the connection's share is done; false when it broke. */
  async function transact(session: SmtpSession, first: Job): Promise<boolean> {
    const { socket, replies } = session;
    let current: Job | undefined = first;
    let envelopeSent = false;
    let sent = 0;
    while (current) {
      const job: Job = current;
      // Without PIPELINING each command waits for its reply; with it the three go together.
      let refusal: SmtpReplyError | undefined;
      let dataOpen = false;
      try {
        const commands = envelopeCommands(job, session);
        if (session.pipelining && !envelopeSent) socket.write(commands.join(''));
        for (const [i, stage] of ENVELOPE_STAGES.entries()) {
          if (!session.pipelining) socket.write(commands[i] as string);
          const reply = await replies.next();
          dataOpen = reply.code === 354;
          if (!stage.expected.includes(reply.code)) {
            refusal ??= new SmtpReplyError(stage.refused, reply);
            if (!session.pipelining) break;
          }
        }
      } catch (error) {
        // The connection dropped before the message's data was written: nothing was delivered.
        retryElsewhere(job, error as Error);
        return false;
      }
      if (refusal) {
        if (refusal.reply.code === CODE_CLOSING) {
          retryElsewhere(job, refusal);
          return false;
        }
        job.reject(refusal);
        // A server that opened DATA after refusing the recipient would take a message for
        // nobody: the connection is dropped instead.
        if (dataOpen) return false;
        socket.write('RSET\r\n');
        await expectReply(replies, 'RSET refused', 250);
      } else {
        sent++;
        const following =
          session.pipelining && sent < messagesPerConnection ? queue.shift() : undefined;
        socket.cork();
        for (const chunk of dataChunks(job.message)) socket.write(chunk);
        if (following) socket.write(envelopeCommands(following, session).join(''));
        socket.uncork();
        envelopeSent = following !== undefined;
        let reply: SmtpReply;
        try {
          // A relay may scan the content before it answers (RFC 5321 4.5.3.2.6: 10 minutes).
          socket.setTimeout(DATA_REPLY_TIMEOUT_MS);
          reply = await replies.next();
          socket.setTimeout(target.timeoutMs);
        } catch (error) {
          // The data went out, so whether it arrived is unknown: a retry of this one is the
          // caller's to decide. The next one's data never left.
          job.reject(error as Error);
          if (following) retryElsewhere(following, error as Error);
          return false;
        }
        if (reply.code === 250) job.resolve(reply);
        else job.reject(new SmtpReplyError('Message refused', reply));
        if (reply.code === CODE_CLOSING) {
          if (following)
            retryElsewhere(following, new Error(`The server closed: ${replyLine(reply)}`));
          return false;
        }
        if (following) {
          current = following;
          continue;
        }
      }
      if (sent >= messagesPerConnection) return true;
      current = await take(socket);
      envelopeSent = false;
    }
    return true;
  }

  async function runConnection(first: Job): Promise<void> {
    let session: SmtpSession;
    try {
      session = await openSession(target);
    } catch (error) {
      open--;
      // While another connection is open or opening, the message waits for it; with none, every
      // waiting message would meet the same closed door, so they all fail now (to be retried).
      refusedAt = Date.now();
      if (!closed && (ready > 0 || open > 0)) {
        const waiter = idle.shift();
        if (waiter) waiter(first);
        else queue.unshift(first);
      } else for (const job of [first, ...queue.splice(0)]) job.reject(error as Error);
      return;
    }
    ready++;
    const { socket } = session;
    try {
      if ((await transact(session, first)) && !socket.destroyed) {
        // A polite goodbye; a server that does not close within 5 s is closed on.
        socket.setTimeout(5000);
        socket.end('QUIT\r\n');
      } else socket.destroy();
    } catch {
      // A reply that broke the session (RSET refused): the message it concerned was answered.
      socket.destroy();
    } finally {
      ready--;
      open--;
      // Messages that came while this connection was closing get a fresh one.
      const next = queue.shift();
      if (next) enqueue(next, { first: true });
    }
  }

  return {
    send(mail: RawMail): Promise<SmtpReply> {
      if (closed) return Promise.reject(new Error(TRANSPORT_CLOSED));
      return new Promise((resolve, reject) => {
        enqueue({ ...mail, resolve, reject, requeued: 0 }, { first: false });
      });
    },
    /** Closes idle connections at once and the others after the message they are sending. */
    close(): void {
      closed = true;
      for (const waiter of idle.splice(0)) waiter(undefined);
      for (const job of queue.splice(0)) job.reject(new Error(TRANSPORT_CLOSED));
    },
  };
}
