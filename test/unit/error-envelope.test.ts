import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Koa from 'koa';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../api/middleware/error-envelope.js';
import { requestId } from '../../api/middleware/request-id.js';

// No request to the real stack is known to end in a 500 (each one found is fixed), so the last
// resort is tested here: the real middleware in a Koa app whose only route fails unexpectedly.
const lines: Record<string, unknown>[] = [];
let server: ReturnType<Koa['listen']>;
let url: string;
beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = new Koa();
  app.silent = true;
  app.use(requestId());
  app.use(errorEnvelope(pino(sink)));
  app.use(() => {
    throw new Error('internal detail: connection string postgres://u:p@db');
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('an unexpected error', () => {
  it('answers 500 INTERNAL_ERROR without internals, logged with the request id it carries', async () => {
    for (const incoming of [undefined, 'trace-0123456789']) {
      const res = await fetch(`${url}/anything`, {
        headers: incoming ? { 'X-Request-Id': incoming } : {},
      });
      const text = await res.text();
      const body = JSON.parse(text) as { error: { code: string; requestId: string } };
      expect(res.status).toBe(500);
      expect(body.error.code).toBe('INTERNAL_ERROR');
      expect(text).not.toContain('internal detail');
      const id = res.headers.get('x-request-id');
      expect(body.error.requestId).toBe(id);
      if (incoming) expect(id).toBe(incoming);
      const logged = lines.filter((l) => l.requestId === id);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({
        level: 50,
        msg: 'unhandled error',
        path: '/anything',
        err: { message: expect.stringContaining('internal detail') },
      });
    }
  });
});
