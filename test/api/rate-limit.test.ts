import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPgRateLimiter, reservationSize } from '../../runtime/pg-rate-limiter.js';
import { createProject, signUp } from '../helpers/factories.js';
import { startStack, type TestStack } from '../helpers/stack.js';

const LIMIT = 7;
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
});
afterAll(async () => {
  await stack?.stop();
});

describe('rate limit per project', () => {
  it(`lets ${LIMIT} requests through and answers request ${LIMIT + 1} with 429 and Retry-After`, async () => {
    // Sign-up and project creation count against the client address, not the project.
    const owner = await signUp(stack.api);
    const project = await createProject(stack.api, owner);
    const path = `/projects/${project.id}/setup-state`;

    for (let i = 1; i <= LIMIT; i += 1) {
      const res = await stack.api.get(path, { key: project.secretKey });
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe(String(LIMIT));
      expect(res.headers.get('ratelimit-remaining')).toBe(String(LIMIT - i));
    }
    const limited = await stack.api.get(path, { key: project.secretKey });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');

    // The budget is the project's, whatever the credential: a member's session shares it.
    const bySession = await stack.api.get(path, { cookie: owner.cookie });
    expect(bySession.status).toBe(429);

    // Another project is not affected.
    const other = await createProject(stack.api, await signUp(stack.api));
    expect(
      (await stack.api.get(`/projects/${other.id}/setup-state`, { key: other.secretKey })).status,
    ).toBe(200);
  });

  it('counts a session outside any project per user, not per address', async () => {
    const [first, second] = [await signUp(stack.api), await signUp(stack.api)];
    for (let i = 1; i <= LIMIT; i += 1) {
      const res = await stack.api.get('/users/@me/projects', { cookie: first.cookie });
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(LIMIT - i));
    }
    const limited = await stack.api.get('/users/@me/projects', { cookie: first.cookie });
    expect(limited.status).toBe(429);
    // Same address (every request here comes from loopback), another user: a budget of its own.
    const other = await stack.api.get('/users/@me/projects', { cookie: second.cookie });
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
  });

  it('does not count health probes', async () => {
    for (let i = 0; i < LIMIT + 3; i += 1)
      expect((await stack.api.get('/health')).status).toBe(200);
  });
});

describe('the shared counter behind the limit', () => {
  it('never lets replicas together exceed the limit, even when they reserve in chunks', async () => {
    const pool = new pg.Pool({ connectionString: inject('stack').databaseUrl, max: 6 });
    try {
      const perMinute = 1000;
      expect(reservationSize(perMinute)).toBe(10);
      // Three API replicas sharing one project's budget, hammering it concurrently.
      const replicas = [1, 2, 3].map(() => createPgRateLimiter({ pool, perMinute }));
      const key = `project:${randomUUID()}`;
      const decisions = await Promise.all(
        Array.from({ length: 1500 }, (_, i) =>
          (replicas[i % 3] as (typeof replicas)[number]).consume(key),
        ),
      );
      const allowed = decisions.filter((d) => d.allowed).length;
      expect(allowed).toBeLessThanOrEqual(perMinute);
      // At most (replicas - 1) chunks may be stranded in other replicas.
      expect(allowed).toBeGreaterThanOrEqual(perMinute - 2 * reservationSize(perMinute));
      const denied = decisions.find((d) => !d.allowed);
      expect(denied?.remaining).toBe(0);
      expect(denied?.resetSeconds).toBeGreaterThan(0);

      // One replica alone spends the whole budget exactly.
      const single = createPgRateLimiter({ pool, perMinute: 250 });
      const soloKey = `project:${randomUUID()}`;
      let passed = 0;
      for (let i = 0; i < 260; i += 1) if ((await single.consume(soloKey)).allowed) passed += 1;
      expect(passed).toBe(250);
    } finally {
      await pool.end();
    }
  });
});
