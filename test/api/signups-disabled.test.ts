import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../helpers/factories.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ env: { DISABLE_SIGNUPS: 'true' } });
});
afterAll(async () => {
  await stack?.stop();
});

describe('DISABLE_SIGNUPS', () => {
  it('refuses sign-up with 403 and says so in /config', async () => {
    const email = uniqueEmail('closed');
    const res = await stack.api.post('/auth/signup', {
      body: { email, password: 'long enough pw' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('SIGNUPS_DISABLED');
    expect(
      (await stack.api.post('/auth/login', { body: { email, password: 'long enough pw' } })).status,
    ).toBe(401);
    expect((await stack.api.get('/config')).body.features.signup).toBe(false);
  });
});
