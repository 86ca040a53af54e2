import net from 'node:net';
import selfsigned from 'selfsigned';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dataChunks } from '../../runtime/smtp/smtp-data.js';
import { createSmtpPool, type RawMail } from '../../runtime/smtp/smtp-pool.js';
import { createSmtpMailer } from '../../runtime/smtp/smtp-mailer.js';
import { MailDeliveryError } from '../../domain/shared/ports.js';

// The delivery engine's own SMTP client against real SMTP servers (smtp-server, the library the
// sink and the submission port use), each set up to speak one way: with and without PIPELINING,
// STARTTLS, implicit TLS, AUTH PLAIN or LOGIN only, refusing a recipient, closing idle connections.

interface Received {
  from: string;
  to: string[];
  raw: string;
  session: string;
}

let keys: { private: string; cert: string };
const servers: SMTPServer[] = [];

beforeAll(async () => {
  keys = await Promise.resolve(
    selfsigned.generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048 }),
  );
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(() => r(null)))));
});

async function startServer(options: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = [];
  const sessions = new Set<string>();
  const commands: string[] = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onConnect(session, callback) {
      sessions.add(session.id);
      callback();
    },
    onAuth: (auth, _session, callback) =>
      auth.username === 'user' && auth.password === 'secret'
        ? callback(null, { user: auth.username })
        : callback(new Error('Invalid login')),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          session: session.id,
        });
        callback();
      });
    },
    ...options,
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const port = (server.server.address() as net.AddressInfo).port;
  return { server, port, received, sessions, commands };
}

const plainTarget = (port: number) => ({
  host: '127.0.0.1',
  port,
  secure: false,
  rejectUnauthorized: false,
  timeoutMs: 10_000,
});

const mail = (i: number, body = `Hello ${i}\r\n`): RawMail => ({
  from: 'sender@example.test',
  to: `r${i}@example.test`,
  message: Buffer.from(`Subject: message ${i}\r\n\r\n${body}`),
});

describe('dataChunks', () => {
  it('doubles every leading dot, ends the last line and adds the lone dot', () => {
    const out = (text: string): string =>
      Buffer.concat(dataChunks(Buffer.from(text))).toString('latin1');
    expect(out('a\r\n.b\r\n')).toBe('a\r\n..b\r\n.\r\n');
    expect(out('.a\r\n..\r\n.')).toBe('..a\r\n...\r\n..\r\n.\r\n');
    expect(out('plain')).toBe('plain\r\n.\r\n');
    expect(out('no dots\r\n')).toBe('no dots\r\n.\r\n');
  });
});

describe('the SMTP pool', () => {
  it('delivers many messages over pipelined connections, each exactly once and intact', async () => {
    const server = await startServer();
    const pool = createSmtpPool({ target: plainTarget(server.port), connections: 3 });
    const mails = Array.from({ length: 250 }, (_, i) => mail(i, `.dot line ${i}\r\n..two\r\n`));
    const replies = await Promise.all(mails.map((m) => pool.send(m)));
    pool.close();
    expect(replies.every((r) => r.code === 250)).toBe(true);
    expect(server.received).toHaveLength(250);
    const byRecipient = new Map(server.received.map((r) => [r.to[0], r]));
    for (let i = 0; i < 250; i++) {
      const got = byRecipient.get(`r${i}@example.test`);
      expect(got?.raw).toBe(`Subject: message ${i}\r\n\r\n.dot line ${i}\r\n..two\r\n`);
      expect(got?.from).toBe('sender@example.test');
    }
    // Three connections at most, each renewed after its 100 messages.
    expect(server.sessions.size).toBeGreaterThanOrEqual(3);
    expect(server.sessions.size).toBeLessThanOrEqual(6);
  });

  it('works with a server that does not offer PIPELINING', async () => {
    const server = await startServer({ hidePIPELINING: true });
    const pool = createSmtpPool({ target: plainTarget(server.port), connections: 2 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => pool.send(mail(i))));
    pool.close();
    expect(server.received.map((r) => r.to[0]).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `r${i}@example.test`).sort(),
    );
  });

  it('answers a refused recipient with the reply and goes on with the next message', async () => {
    const server = await startServer({
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('gone')) {
          const error = Object.assign(new Error('5.1.1 <gone@example.test>: User unknown'), {
            responseCode: 550,
          });
          return callback(error);
        }
        callback();
      },
    });
    const pool = createSmtpPool({ target: plainTarget(server.port), connections: 1 });
    const refused = pool.send({ ...mail(0), to: 'gone@example.test' });
    const accepted = pool.send(mail(1));
    await expect(refused).rejects.toThrow(
      'Recipient refused: 550 5.1.1 <gone@example.test>: User unknown',
    );
    await expect(accepted).resolves.toMatchObject({ code: 250 });
    pool.close();
    expect(server.received.map((r) => r.to[0])).toEqual(['r1@example.test']);
    expect(server.sessions.size).toBe(1);
  });

  it('upgrades with STARTTLS and logs in with AUTH PLAIN', async () => {
    const server = await startServer({
      disabledCommands: [],
      authOptional: false,
      key: keys.private,
      cert: keys.cert,
    });
    const pool = createSmtpPool({
      target: { ...plainTarget(server.port), auth: { user: 'user', pass: 'secret' } },
      connections: 1,
    });
    await pool.send(mail(1));
    pool.close();
    expect(server.received).toHaveLength(1);
  });

  it('speaks TLS from the first byte and logs in with AUTH LOGIN when that is all it may', async () => {
    const server = await startServer({
      secure: true,
      authOptional: false,
      authMethods: ['LOGIN'],
      key: keys.private,
      cert: keys.cert,
    });
    const pool = createSmtpPool({
      target: { ...plainTarget(server.port), secure: true, auth: { user: 'user', pass: 'secret' } },
      connections: 1,
    });
    await pool.send(mail(1));
    pool.close();
    expect(server.received).toHaveLength(1);
  });

  it('refuses a wrong password with the 535 reply', async () => {
    const server = await startServer({ authOptional: false });
    const pool = createSmtpPool({
      target: { ...plainTarget(server.port), auth: { user: 'user', pass: 'wrong' } },
      connections: 1,
    });
    await expect(pool.send(mail(1))).rejects.toThrow(/^Login refused: 535/);
    pool.close();
    expect(server.received).toHaveLength(0);
  });

  it('takes fresh connections when the server closed idle ones, spending no retry', async () => {
    const server = await startServer({ socketTimeout: 300 });
    const pool = createSmtpPool({ target: plainTarget(server.port), connections: 3 });
    await Promise.all([1, 2, 3].map((i) => pool.send(mail(i))));
    const opened = server.sessions.size;
    expect(opened).toBeGreaterThanOrEqual(2);
    // Every connection is closed by the server while it waits for work.
    await new Promise((resolve) => setTimeout(resolve, 800));
    await Promise.all([4, 5, 6, 7, 8].map((i) => pool.send(mail(i))));
    pool.close();
    expect(server.received.map((r) => r.to[0]).sort()).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `r${i}@example.test`).sort(),
    );
    expect(server.sessions.size).toBeGreaterThan(opened);
  });

  it('sends everything over the connections a server allows, refusing the others (421)', async () => {
    const server = await startServer({ maxClients: 1 });
    const pool = createSmtpPool({ target: plainTarget(server.port), connections: 4 });
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => pool.send(mail(i))),
    );
    pool.close();
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(server.received).toHaveLength(40);
  });

  it('drops a server that answers out of protocol, failing what it was sending', async () => {
    const rogue = net.createServer((socket) => {
      socket.write('220 rogue ESMTP\r\n');
      socket.on('data', () => socket.write('hello, I am not an SMTP server\r\n'));
    });
    await new Promise<void>((resolve) => rogue.listen(0, '127.0.0.1', resolve));
    const port = (rogue.address() as net.AddressInfo).port;
    const pool = createSmtpPool({ target: plainTarget(port), connections: 1 });
    await expect(pool.send(mail(1))).rejects.toThrow(/out of protocol: hello, I am not/);
    pool.close();
    await new Promise((resolve) => rogue.close(resolve));
  });

  it('fails every waiting message when no connection can be opened', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const pool = createSmtpPool({ target: plainTarget(closedPort), connections: 2 });
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => pool.send(mail(i))),
    );
    pool.close();
    expect(results.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/ECONNREFUSED/);
  });
});

describe('the SMTP mailer', () => {
  it('marks 5xx refusals permanent and 4xx ones temporary, with their reply code and stage', async () => {
    const server = await startServer({
      onMailFrom(address, _session, callback) {
        if (!address.address.startsWith('nobody')) return callback();
        callback(Object.assign(new Error('5.1.8 Sender domain not found'), { responseCode: 553 }));
      },
      onRcptTo(address, _session, callback) {
        const code = address.address.startsWith('full')
          ? 452
          : address.address.startsWith('gone')
            ? 550
            : 0;
        if (code)
          return callback(Object.assign(new Error(`refused ${code}`), { responseCode: code }));
        callback();
      },
    });
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${server.port}`, poolSize: 2 });
    const message = (to: string) => ({
      from: 'sender@example.test',
      to,
      subject: 'Hi',
      html: '<p>Hi</p>',
      text: 'Hi',
      messageId: `<${to}>`,
    });
    const gone = await mailer.send(message('gone@example.test')).catch((e: unknown) => e);
    const full = await mailer.send(message('full@example.test')).catch((e: unknown) => e);
    const badSender = await mailer
      .send({ ...message('ok@example.test'), from: 'nobody@nowhere.test' })
      .catch((e: unknown) => e);
    const injected = await mailer
      .send(message('ok@example.test>\r\nRCPT TO:<victim@example.test'))
      .catch((e: unknown) => e);
    await mailer.send(message('ok@example.test'));
    mailer.close();
    // An address that would smuggle a command in is refused before any connection sees it.
    expect(injected).toMatchObject({ permanent: true });
    expect(String((injected as Error).message)).toMatch(/CR, LF/);
    expect(gone).toBeInstanceOf(MailDeliveryError);
    expect(gone).toMatchObject({ permanent: true, responseCode: 550, senderRefused: false });
    expect(full).toMatchObject({ permanent: false, responseCode: 452, senderRefused: false });
    // A refused sender says nothing of the recipient (no hard bounce for it).
    expect(badSender).toMatchObject({ permanent: true, responseCode: 553, senderRefused: true });
    expect(String((badSender as Error).message)).toMatch(/^Sender refused: 553 5\.1\.8/);
    expect(server.received.map((r) => r.to[0])).toEqual(['ok@example.test']);
  });
});
