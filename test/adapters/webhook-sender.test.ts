import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_RESPONSE_BYTES_KEPT } from '../../domain/automation/webhook-request.pure.js';
import { WebhookRefusedError, type DnsResolver } from '../../domain/shared/ports.js';
import { createWebhookSender } from '../../runtime/webhook-sender.js';

/** A loopback receiver on `host` that answers by path and remembers what reached it. */
async function receiver(host: string, port = 0) {
  const seen: { method: string; url: string; body: string; remotePort: number }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        body,
        remotePort: req.socket.remotePort ?? 0,
      });
      if (req.url === '/hang') return;
      if (req.url === '/drip') {
        res.writeHead(202);
        res.write('first bytes');
        return;
      }
      if (req.url === '/big') {
        res.writeHead(200);
        res.end('x'.repeat(WEBHOOK_RESPONSE_BYTES_KEPT * 5));
        return;
      }
      res.writeHead(201, { 'Content-Type': 'text/plain' });
      res.end(`${host} ${req.headers['x-test']}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as AddressInfo).port, seen };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A resolver whose answer the test changes (DNS rebinding), counting its lookups. */
function resolver(first: string) {
  const state = { answer: first, lookups: 0 };
  const dns: DnsResolver = {
    resolveAddresses: async () => {
      state.lookups += 1;
      return [state.answer];
    },
  } as unknown as DnsResolver;
  return { dns, state };
}

describe('the webhook sender', () => {
  it('sends method, headers and body, keeps the first bytes of an answer, and ends a stalled one at its deadline', async () => {
    const { port, seen } = await receiver('127.0.0.1');
    for (const keepAlive of [false, true]) {
      const send = createWebhookSender({
        dns: resolver('127.0.0.1').dns,
        allowPrivate: true,
        keepAlive,
        timeoutMs: 300,
      });
      const base = `http://hooks.test:${port}`;
      const ok = await send({
        url: `${base}/ok?x=1`,
        method: 'PUT',
        headers: { 'X-Test': 'yes' },
        body: '{"a":1}',
      });
      expect(ok).toEqual({ status: 201, body: '127.0.0.1 yes' });
      expect(seen.at(-1)).toMatchObject({ method: 'PUT', url: '/ok?x=1', body: '{"a":1}' });

      const big = await send({ url: `${base}/big`, method: 'POST', headers: {} });
      expect(big.status).toBe(200);
      expect(big.body).toBe('x'.repeat(WEBHOOK_RESPONSE_BYTES_KEPT));

      // No answer at all: an error worth retrying. An answer that stalls: its status stands.
      await expect(send({ url: `${base}/hang`, method: 'POST', headers: {} })).rejects.toThrow(
        'No answer within 300 ms',
      );
      expect(await send({ url: `${base}/drip`, method: 'POST', headers: {} })).toEqual({
        status: 202,
        body: 'first bytes',
      });
    }
  });

  it('refuses private addresses unless allowed, and other schemes, before connecting', async () => {
    const { port, seen } = await receiver('127.0.0.1');
    const send = createWebhookSender({ dns: resolver('127.0.0.1').dns, allowPrivate: false });
    for (const url of [`http://hooks.test:${port}/ok`, `http://127.0.0.1:${port}/ok`]) {
      const refused = send({ url, method: 'POST', headers: {} });
      await expect(refused).rejects.toBeInstanceOf(WebhookRefusedError);
      await expect(refused).rejects.toThrow(/loopback/);
    }
    await expect(
      send({ url: `ftp://hooks.test:${port}/ok`, method: 'POST', headers: {} }),
    ).rejects.toBeInstanceOf(WebhookRefusedError);
    expect(seen).toHaveLength(0);
  });

  it('keeps a URL pinned to the address it checked while the pin lasts, and reuses kept connections', async () => {
    // One name, two loopback addresses with a receiver each on the same port.
    const one = await receiver('127.0.0.1');
    const two = await receiver('127.0.0.2', one.port);
    const { dns, state } = resolver('127.0.0.1');
    const pinnedFor = (pinnedTtlMs: number) =>
      createWebhookSender({ dns, allowPrivate: true, keepAlive: true, pinnedTtlMs });

    const pinned = pinnedFor(60_000);
    const url = `http://hooks.test:${one.port}/ok`;
    const answers = [(await pinned({ url, method: 'POST', headers: {} })).body];
    state.answer = '127.0.0.2'; // the name now points elsewhere
    for (let i = 0; i < 5; i += 1)
      answers.push((await pinned({ url, method: 'POST', headers: {} })).body);
    expect(new Set(answers)).toEqual(new Set(['127.0.0.1 undefined']));
    expect(state.lookups).toBe(1);
    // Kept connections carried them: fewer connections than requests.
    expect(new Set(one.seen.map((s) => s.remotePort)).size).toBeLessThan(answers.length);

    // Once the pin ends the name is resolved and checked again, and new connections follow it.
    expect(two.seen).toHaveLength(0);
    const unpinned = pinnedFor(0);
    state.answer = '127.0.0.1';
    expect((await unpinned({ url, method: 'POST', headers: {} })).body).toBe('127.0.0.1 undefined');
    state.answer = '127.0.0.2';
    expect((await unpinned({ url, method: 'POST', headers: {} })).body).toBe('127.0.0.2 undefined');
    expect(two.seen).toHaveLength(1);
  });
});
