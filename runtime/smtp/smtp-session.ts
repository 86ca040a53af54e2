import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import { replyLine, replyReader, type ReplyReader, type SmtpReply } from './smtp-replies.js';

/** The relay to connect to, and how. */
export interface SmtpTarget {
  host: string;
  port: number;
  /** TLS from the first byte (smtps, port 465); otherwise STARTTLS whenever the server offers it. */
  secure: boolean;
  auth?: { user: string; pass: string };
  /** Whether the server's certificate must be valid for `host`. */
  rejectUnauthorized: boolean;
  /** How long the server may stay silent (connecting, greeting, answering) before we give up. */
  timeoutMs: number;
}

/** An open, greeted (and, when asked, authenticated) connection ready for mail transactions. */
export interface SmtpSession {
  socket: net.Socket;
  replies: ReplyReader;
  /** RFC 2920: commands may be sent without waiting for each reply. */
  pipelining: boolean;
  /** RFC 6531: envelope addresses may be UTF-8. */
  smtputf8: boolean;
}

/** A reply the session did not expect, with the stage it came at. */
export class SmtpReplyError extends Error {
  constructor(
    readonly stage: string,
    readonly reply: SmtpReply,
  ) {
    super(`${stage}: ${replyLine(reply)}`);
  }
}

/** Answers the next reply, or throws SmtpReplyError when its code is not one of `expected`. */
export async function expectReply(
  replies: ReplyReader,
  stage: string,
  ...expected: number[]
): Promise<SmtpReply> {
  const reply = await replies.next();
  if (!expected.includes(reply.code)) throw new SmtpReplyError(stage, reply);
  return reply;
}

/** The EHLO name: the host's name when it is fully qualified, else its address literal. */
function helloName(): string {
  const name = os.hostname();
  return name.includes('.') ? name : '[127.0.0.1]';
}

function connected(socket: net.Socket, event: 'connect' | 'secureConnect'): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error): void => reject(error);
    socket.once('error', fail);
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error('Timed out connecting to the server'));
    });
    socket.once(event, () => {
      socket.off('error', fail);
      socket.removeAllListeners('timeout');
      resolve();
    });
  });
}

/** The server's extensions by keyword, each with its parameters ("AUTH" -> ["PLAIN", "LOGIN"]). */
type Extensions = Map<string, string[]>;

async function hello(socket: net.Socket, replies: ReplyReader): Promise<Extensions> {
  socket.write(`EHLO ${helloName()}\r\n`);
  const reply = await replies.next();
  if (reply.code === 250) {
    // The first line names the server; each other line is an extension ("AUTH=LOGIN" is an old
    // spelling of "AUTH LOGIN").
    return new Map(
      reply.lines.slice(1).map((line) => {
        const [keyword = '', ...parameters] = line
          .toUpperCase()
          .trim()
          .split(/[\s=]+/);
        return [keyword, parameters];
      }),
    );
  }
  socket.write(`HELO ${helloName()}\r\n`);
  await expectReply(replies, 'HELO refused', 250);
  return new Map();
}

async function authenticate(
  socket: net.Socket,
  replies: ReplyReader,
  auth: NonNullable<SmtpTarget['auth']>,
  offered: string[],
): Promise<void> {
  const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
  if (offered.includes('LOGIN') && !offered.includes('PLAIN')) {
    socket.write('AUTH LOGIN\r\n');
    await expectReply(replies, 'Login refused', 334);
    socket.write(`${base64(auth.user)}\r\n`);
    await expectReply(replies, 'Login refused', 334);
    socket.write(`${base64(auth.pass)}\r\n`);
  } else {
    socket.write(`AUTH PLAIN ${base64(`\0${auth.user}\0${auth.pass}`)}\r\n`);
  }
  await expectReply(replies, 'Login refused', 235);
}

/**
 * Connects, reads the greeting, says EHLO, upgrades with STARTTLS when the server offers it (and
 * says EHLO again), and logs in when `target.auth` is set. A failed step destroys the socket.
 */
export async function openSession(target: SmtpTarget): Promise<SmtpSession> {
  const tlsOptions = {
    // SNI names hosts, never addresses (RFC 6066).
    servername: net.isIP(target.host) ? undefined : target.host,
    rejectUnauthorized: target.rejectUnauthorized,
  };
  let socket: net.Socket = target.secure
    ? tls.connect({ host: target.host, port: target.port, ...tlsOptions })
    : net.connect({ host: target.host, port: target.port });
  socket.setTimeout(target.timeoutMs);
  try {
    await connected(socket, target.secure ? 'secureConnect' : 'connect');
    socket.setNoDelay(true);
    let replies = replyReader(socket);
    await expectReply(replies, 'Greeting refused', 220);
    let extensions = await hello(socket, replies);
    if (!target.secure && extensions.has('STARTTLS')) {
      socket.write('STARTTLS\r\n');
      await expectReply(replies, 'STARTTLS refused', 220);
      replies.detach();
      const plain = socket;
      // The TLS socket reports what breaks from here on; the plain one must not crash the process.
      plain.on('error', () => undefined);
      socket = tls.connect({ socket: plain, ...tlsOptions });
      socket.setTimeout(target.timeoutMs);
      await connected(socket, 'secureConnect');
      replies = replyReader(socket);
      extensions = await hello(socket, replies);
    }
    if (target.auth) await authenticate(socket, replies, target.auth, extensions.get('AUTH') ?? []);
    return {
      socket,
      replies,
      pipelining: extensions.has('PIPELINING'),
      smtputf8: extensions.has('SMTPUTF8'),
    };
  } catch (error) {
    socket.destroy();
    throw error;
  }
}
