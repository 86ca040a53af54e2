import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      smtp: true,
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
