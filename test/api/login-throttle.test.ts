import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_LIMITS } from '../../domain/accounts/auth-limits.pure.js';
import { withDatabase } from '../helpers/database.js';
import { signUp, uniqueEmail } from '../helpers/factories.js';
import type { HttpResponse } from '../helpers/http.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

// The stack trusts X-Forwarded-For (TRUST_PROXY), so each test picks its client addresses.
const newIp = (): string => {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
};
const from = (ip: string) => ({ 'X-Forwarded-For': ip });

const login = (email: string, password: string, ip = newIp()) =>
  stack.api.post('/auth/login', { body: { email, password }, headers: from(ip) });

function expectThrottled(res: HttpResponse, windowSeconds: number): void {
  expect(res.status, res.text).toBe(429);
  expect(res.body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', statusCode: 429 });
  const wait = Number(res.headers.get('Retry-After'));
  expect(Number.isInteger(wait)).toBe(true);
  expect(wait).toBeGreaterThan(windowSeconds - 60);
  expect(wait).toBeLessThanOrEqual(windowSeconds);
}

const { loginFailuresPerAccount: perAccount, loginFailuresPerIp: perIp } = AUTH_LIMITS;

describe('failed logins', () => {
  it(`per account: ${perAccount.max} failures answer 401, the next attempt 429 even with the right password`, async () => {
    const user = await signUp(stack.api, 'throttled');
    for (let i = 1; i <= perAccount.max; i += 1) {
      // From a new address each time: the account's limit holds whatever the address.
      expect((await login(user.email, `wrong password ${i}`)).status).toBe(401);
    }
    expectThrottled(await login(user.email, user.password), perAccount.windowSeconds);
    // Another account from the same addresses is not affected.
    const other = await signUp(stack.api, 'bystander');
    expect((await login(other.email, other.password)).status).toBe(200);
  });

  it('throttles an unknown address exactly like a known one', async () => {
    const ghost = uniqueEmail('ghost');
    for (let i = 1; i <= perAccount.max; i += 1) {
      expect((await login(ghost, 'wrong password')).status).toBe(401);
    }
    const res = await login(ghost.toUpperCase(), 'wrong password'); // the address, any case
    expectThrottled(res, perAccount.windowSeconds);
  });

  it("a successful login clears the account's failures", async () => {
    const user = await signUp(stack.api, 'reset');
    for (let i = 1; i < perAccount.max; i += 1) {
      expect((await login(user.email, 'wrong password')).status).toBe(401);
    }
    expect((await login(user.email, user.password)).status).toBe(200);
    for (let i = 1; i <= perAccount.max; i += 1) {
      expect((await login(user.email, 'wrong password')).status).toBe(401);
    }
    expect((await login(user.email, 'wrong password')).status).toBe(429);
  });

  it('lets the account in again once its failures leave the window', async () => {
    const user = await signUp(stack.api, 'window');
    for (let i = 1; i <= perAccount.max; i += 1) await login(user.email, 'wrong password');
    expect((await login(user.email, user.password)).status).toBe(429);
    await withDatabase((db) =>
      db.query(`UPDATE auth_attempts SET at = at - make_interval(secs => $2) WHERE bucket = $1`, [
        `loginFailuresPerAccount:${user.email}`,
        perAccount.windowSeconds,
      ]),
    );
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it(`per client address: ${perIp.max} failures on any accounts answer 401, the next 429`, async () => {
    const ip = newIp();
    for (let i = 1; i <= perIp.max; i += 1) {
      expect((await login(uniqueEmail('spray'), 'wrong password', ip)).status).toBe(401);
    }
    const user = await signUp(stack.api, 'sprayed');
    expectThrottled(await login(user.email, user.password, ip), perIp.windowSeconds);
    // The same account from another address still logs in.
    expect((await login(user.email, user.password)).status).toBe(200);
  });
});

describe('sign-up', () => {
  const { signupsPerAddress, signupsPerIp } = AUTH_LIMITS;
  const signup = (email: string, ip = newIp()) =>
    stack.api.post('/auth/signup', {
      body: { email, password: 'long enough pw' },
      headers: from(ip),
    });

  it(`per address: ${signupsPerAddress.max} attempts pass, the next is 429`, async () => {
    const email = uniqueEmail('again');
    expect((await signup(email)).status).toBe(201);
    for (let i = 2; i <= signupsPerAddress.max; i += 1)
      expect((await signup(email)).status).toBe(409);
    expectThrottled(await signup(email), signupsPerAddress.windowSeconds);
  });

  it(`per client address: ${signupsPerIp.max} sign-ups pass, the next is 429`, async () => {
    const ip = newIp();
    for (let i = 1; i <= signupsPerIp.max; i += 1) {
      expect((await signup(uniqueEmail('farm'), ip)).status).toBe(201);
    }
    expectThrottled(await signup(uniqueEmail('farm'), ip), signupsPerIp.windowSeconds);
    expect((await signup(uniqueEmail('farm'))).status).toBe(201);
  });
});

describe('password-reset and verification requests', () => {
  const { accountEmailsPerAddress: perAddress, accountEmailsPerIp } = AUTH_LIMITS;
  const ask = (email: string, ip = newIp(), path = '/auth/request-password-reset') =>
    stack.api.post(path, { body: { email }, headers: from(ip) });

  it(`per address: ${perAddress.max} pass and the next is 429, the same with or without an account`, async () => {
    const user = await signUp(stack.api, 'forgetful');
    const ghost = uniqueEmail('nobody');
    const answers: Record<string, HttpResponse[]> = { [user.email]: [], [ghost]: [] };
    for (const email of [user.email, ghost]) {
      for (let i = 1; i <= perAddress.max + 1; i += 1) answers[email]?.push(await ask(email));
    }
    const shape = (res: HttpResponse) => ({ status: res.status, code: res.body?.error?.code });
    expect(answers[user.email]?.map(shape)).toEqual(answers[ghost]?.map(shape));
    expect(answers[ghost]?.slice(0, perAddress.max).every((r) => r.status === 202)).toBe(true);
    expectThrottled(answers[user.email]?.at(-1) as HttpResponse, perAddress.windowSeconds);
    expectThrottled(answers[ghost]?.at(-1) as HttpResponse, perAddress.windowSeconds);
    // Verification requests share the address's budget: both send mail to it.
    const verify = await ask(ghost, newIp(), '/auth/request-verification');
    expect(verify.status).toBe(429);
  });

  it(`per client address: ${accountEmailsPerIp.max} pass, the next is 429`, async () => {
    const ip = newIp();
    for (let i = 1; i <= accountEmailsPerIp.max; i += 1) {
      expect((await ask(uniqueEmail('probe'), ip)).status).toBe(202);
    }
    expectThrottled(await ask(uniqueEmail('probe'), ip), accountEmailsPerIp.windowSeconds);
  });
});
