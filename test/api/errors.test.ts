import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

function expectEnvelope(
  res: { status: number; headers: Headers; body: any },
  status: number,
  code: string,
) {
  expect(res.status).toBe(status);
  expect(res.body.success).toBe(false);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.statusCode).toBe(status);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
  expect(new Date(res.body.timestamp).toString()).not.toBe('Invalid Date');
}

describe('error envelope', () => {
  it('answers malformed JSON with 400 BAD_REQUEST', async () => {
    const res = await stack.api.post('/auth/login', { rawBody: '{"email": ' });
    expectEnvelope(res, 400, 'BAD_REQUEST');
  });

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const res = await stack.api.get('/no/such/route');
    expectEnvelope(res, 404, 'NOT_FOUND');
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await stack.api.post('/auth/login', {
      body: { email: 'a@example.com', password: 'x'.repeat(1024 * 1024 + 10) },
    });
    expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers a bad field with 422 VALIDATION_ERROR and field errors', async () => {
    const res = await stack.api.post('/auth/signup', {
      body: { email: 'not-an-email', password: 'short' },
    });
    expectEnvelope(res, 422, 'VALIDATION_ERROR');
    const fields = res.body.error.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['email', 'password']);
    for (const error of res.body.error.errors) {
      expect(typeof error.message).toBe('string');
      expect(typeof error.code).toBe('string');
    }
    expect(res.body.error.errors.find((e: { field: string }) => e.field === 'email').code).toBe(
      'invalid_string',
    );
    expect(res.body.error.errors.find((e: { field: string }) => e.field === 'password').code).toBe(
      'too_small',
    );
  });

  it('answers a body nested too deep to walk with 422 too_deep naming where, on every route', async () => {
    const { sk } = await projectFixture(stack.api);
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    // 5,000 levels used to overflow JSON.stringify's stack before PostgreSQL: a 500.
    for (const [path, raw, auth] of [
      ['/contacts', `{"email":"deep@example.com","data":{"x":${deep(5000)}}}`, sk],
      ['/v1/track', `{"email":"deep@example.com","event":"e","data":{"x":${deep(5000)}}}`, sk],
      ['/webhooks/email', `{"type":"delivered","x":${deep(5000)}}`, {}],
    ] as const) {
      const res = await stack.api.post(path, { ...auth, rawBody: raw });
      expectEnvelope(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.errors, path).toEqual([
        {
          field: expect.stringMatching(/^(data\.)?x\.0\.0\./),
          message: expect.any(String),
          code: 'too_deep',
        },
      ]);
    }
    // As deep as allowed is kept.
    const ok = await stack.api.post('/contacts', {
      ...sk,
      rawBody: `{"email":"deep@example.com","data":{"x":${deep(62)}}}`,
    });
    expect(ok.status, ok.text).toBe(201);
    const contacts = await stack.api.get('/contacts?limit=10', sk);
    expect(contacts.body.total).toBe(1);
  });

  it('names a missing field with code required', async () => {
    const res = await stack.api.post('/auth/login', { body: { email: 'a@example.com' } });
    expectEnvelope(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.errors).toEqual([
      { field: 'password', message: 'Required', code: 'required' },
    ]);
  });

  it('tells a value of the wrong type (invalid_type) from a missing one (required)', async () => {
    const res = await stack.api.post('/auth/login', { body: { email: 5, password: null } });
    expectEnvelope(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.errors).toEqual([
      expect.objectContaining({ field: 'email', code: 'invalid_type' }),
      expect.objectContaining({ field: 'password', code: 'invalid_type' }),
    ]);
    expect(res.body.error.errors[0].message).not.toBe('Required');
  });

  it('reuses a sane incoming X-Request-Id and replaces an insane one', async () => {
    const sane = await stack.api.get('/nowhere', {
      headers: { 'X-Request-Id': 'trace-1234-abcd' },
    });
    expect(sane.headers.get('x-request-id')).toBe('trace-1234-abcd');
    expect(sane.body.error.requestId).toBe('trace-1234-abcd');
    const insane = await stack.api.get('/nowhere', {
      headers: { 'X-Request-Id': 'bad id with spaces' },
    });
    expect(insane.headers.get('x-request-id')).not.toBe('bad id with spaces');
    expect(insane.body.error.requestId).toBe(insane.headers.get('x-request-id'));
  });

  it('sends an X-Request-Id on successes too', async () => {
    const res = await stack.api.get('/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports health and readiness', async () => {
    expect((await stack.api.get('/health')).body).toEqual({ status: 'ok' });
    const ready = await stack.api.get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: true, temporal: true } });
  });

  it('serves feature flags without authentication', async () => {
    const res = await stack.api.get('/config');
    expect(res.status).toBe(200);
    expect(res.body.features).toMatchObject({
      signup: true,
      billing: false,
      // SMTP submission is off unless a port is set (smtp-submission.test.ts turns it on).
      smtp: false,
      oauth: { github: false, google: false },
    });
  });

  it('never logs secrets', async () => {
    await stack.api.post('/auth/login', {
      body: { email: 'leak@example.com', password: 'hunter2-very-secret' },
    });
    await stack.api.get('/users/@me', { key: 'sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(stack.apiProcess.output()).not.toContain('hunter2-very-secret');
    expect(stack.apiProcess.output()).not.toContain('sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(stack.apiProcess.output()).toContain('"path":"/auth/login"');
  });
});

describe('requests Node cannot parse', () => {
  /** Writes `head` as it is and reads the whole answer. */
  const rawHead = (head: string): Promise<string> =>
    new Promise((resolve) => {
      const url = new URL(stack.api.baseUrl);
      const socket = net.connect(Number(url.port), url.hostname);
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(text));
      socket.end(head);
    });

  it('are answered in the error envelope: a NUL in a header, a broken request line, huge headers', async () => {
    const cases: [string, number][] = [
      ['GET /health HTTP/1.1\r\nHost: x\r\nX-Note: a\u0000b\r\n\r\n', 400],
      ['GARBAGE\r\n\r\n', 400],
      [`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ];
    for (const [head, status] of cases) {
      const answer = await rawHead(head);
      expect(answer.startsWith(`HTTP/1.1 ${status} `), answer.slice(0, 80)).toBe(true);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      expect(body).toMatchObject({
        success: false,
        error: { code: 'BAD_REQUEST', statusCode: status, requestId: expect.any(String) },
      });
    }
    expect((await stack.api.get('/health')).status).toBe(200);
  });
});
