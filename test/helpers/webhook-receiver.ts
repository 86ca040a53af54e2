import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export interface ReceiverAnswer {
  status: number;
  body?: string;
}

/**
 * A customer's webhook endpoint for tests: an HTTP server on a loopback address that keeps every
 * request and answers what `answer` says for it (200 "ok" by default), per path.
 */
export async function startWebhookReceiver({ host = '127.0.0.1' }: { host?: string } = {}) {
  const received: ReceivedWebhook[] = [];
  let answer: (request: ReceivedWebhook) => ReceiverAnswer = () => ({ status: 200, body: 'ok' });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(request);
      const { status, body = '' } = answer(request);
      res.writeHead(status, { 'Content-Type': 'text/plain' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string): string => `http://${host}:${port}${path}`,
    received,
    /** The requests that came to `path`. */
    at: (path: string): ReceivedWebhook[] => received.filter((r) => r.path === path),
    answer(next: (request: ReceivedWebhook) => ReceiverAnswer) {
      answer = next;
    },
    /** Down: the port refuses connections (open ones are cut) until `up`. */
    down: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    /** Listening again, on the same address and port. */
    up: () => new Promise<void>((resolve) => server.listen(port, host, resolve)),
    stop: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/**
 * The body a request carries, verified with the Standard Webhooks verifier against `secret`
 * (throws WebhookVerificationError when the signature or timestamp does not hold).
 */
export function verifiedBody(request: ReceivedWebhook, secret: string): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });
}
