import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../runtime/embedded/free-port.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

// Billing on, with Stripe at a loopback port nothing listens on: every call to it fails.
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_mailwright',
      STRIPE_WEBHOOK_SECRET: 'whsec_unreachable',
      STRIPE_PRICE_ID: 'price_mailwright',
      STRIPE_API_BASE: `http://127.0.0.1:${await freePort()}`,
    },
  });
});
afterAll(async () => {
  await stack?.stop();
});

describe('an upstream that cannot be reached', () => {
  it('answers 503 SERVICE_UNAVAILABLE in the envelope, logged with the request id', async () => {
    const { owner, project } = await projectFixture(stack.api);
    for (const what of ['checkout', 'billing-portal']) {
      const path = `/users/@me/projects/${project.id}/${what}`;
      const res = await stack.api.post(path, { cookie: owner.cookie });
      expect(res.status, `${what}: ${res.text}`).toBe(503);
      const requestId = res.headers.get('x-request-id');
      expect(res.body.error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        statusCode: 503,
        requestId,
      });
      // The log line names the failure's cause and the request id the answer carries.
      await stack.apiProcess.waitForOutput(
        new RegExp(`"requestId":"${requestId}".*"msg":"upstream failure"`),
        10_000,
      );
    }
  });
});
