import { launchStack, type TestStack } from '../helpers/launch-stack.js';
import type { SharedStack } from '../helpers/global-setup.js';
import {
  startWebhookReceiver,
  verifiedBody,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.js';
import { expect, test as base } from './fixtures.js';
import { SHARED_STACK_ENV } from './global-setup.js';
import { projectWithKey, signUpInBrowser, uniqueEmail } from './journeys.js';

// Event webhooks in the dashboard (issue 26, item 1): an endpoint added with its secret shown
// once, a delivery that failed against a loopback receiver retried from the log once the
// receiver recovers, a test event sent and verified, the secret rotated. The receiver is on
// loopback, so this file runs an API and worker of its own with WEBHOOK_ALLOW_PRIVATE on and
// the retry schedule shortened (a second between attempts, 3 s of trying).

const test = base.extend<object, { hookStack: TestStack; receiver: WebhookReceiver }>({
  receiver: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern
    async ({}, use) => {
      const receiver = await startWebhookReceiver();
      await use(receiver);
      await receiver.stop();
    },
    { scope: 'worker' },
  ],
  hookStack: [
    async ({ dns }, use) => {
      const shared = JSON.parse(process.env[SHARED_STACK_ENV] ?? 'null') as SharedStack;
      const stack = await launchStack({
        shared,
        env: {
          DNS_SERVERS: dns.address,
          WEBHOOK_ALLOW_PRIVATE: 'true',
          WEBHOOK_RETRY_DELAYS: '1s',
          WEBHOOK_RETRY_WINDOW: '3s',
        },
      });
      await use(stack);
      await stack.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ hookStack }, use) => {
    await use(hookStack.env.PUBLIC_URL);
  },
});

test('webhook endpoints: add with the secret shown once, retry a failed delivery, send a test event, rotate', async ({
  page,
  request,
  receiver,
  checkA11y,
  snap,
}) => {
  const toasts = page.getByRole('region', { name: /Notifications/ });
  await signUpInBrowser(page, uniqueEmail('webhooks'));
  const headers = await projectWithKey(page, 'Webhooks project');
  const path = `/orders-${Date.now()}`;
  let down = true;
  receiver.answer((r) =>
    r.path === path && down
      ? { status: 503, body: 'Service Unavailable: deploying' }
      : { status: 200, body: '{"received":true}' },
  );

  await page.goto('/app/webhooks');
  await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
  await expect(page.getByText('No webhook endpoints yet')).toBeVisible();
  await checkA11y();
  await snap('empty');

  // Add: a private address is refused by the API unless allowed; here it is allowed.
  await page.getByRole('button', { name: 'Add endpoint' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByText('Enter the URL to send events to')).toBeVisible();
  await expect(dialog.getByText('Choose at least one event')).toBeVisible();
  await dialog.getByLabel('Endpoint URL').fill(receiver.url(path));
  await dialog.getByLabel('Description (optional)').fill('Order system');
  await dialog.getByRole('checkbox', { name: /Sent/ }).check();
  await dialog.getByRole('checkbox', { name: /Bounced/ }).check();
  await dialog.getByLabel('Other events').fill('order.paid, signup');
  await checkA11y();
  await snap('add');
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();

  const secretDialog = page.getByRole('dialog', { name: 'Endpoint added' });
  const secret = (await secretDialog.getByTestId('signing-secret').textContent()) as string;
  expect(secret).toMatch(/^whsec_/);
  await checkA11y();
  await snap('secret');
  await secretDialog.getByRole('button', { name: 'I have saved it' }).click();
  await expect(page.getByText(secret)).toHaveCount(0);

  const table = page.getByRole('table', { name: 'Webhook endpoints' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('email.bounced');
  await expect(table).toContainText('order.paid');
  await snap('list');

  // An event the endpoint asked for, while the receiver is down: tried, then FAILED.
  const tracked = await request.post('/v1/track', {
    headers,
    data: { email: uniqueEmail('buyer'), event: 'order.paid', data: { total: 42 } },
  });
  expect(tracked.status(), await tracked.text()).toBe(200);
  await table.getByRole('link', { name: receiver.url(path) }).click();
  await expect(page.getByRole('heading', { name: 'Webhook endpoint' })).toBeVisible();
  const log = page.getByRole('table', { name: 'Deliveries' });
  const paid = log.getByRole('row').filter({ hasText: 'order.paid' });
  await expect(async () => {
    await page.reload();
    await expect(paid.getByTestId('delivery-status')).toHaveText('Failed', { timeout: 5_000 });
  }).toPass({ timeout: 45_000 });
  await expect(paid).toContainText('503');
  await expect(page.getByTestId('endpoint-state')).toHaveText('Failing');
  await paid.getByText('Details').click();
  await expect(paid).toContainText('Service Unavailable: deploying');
  await checkA11y();
  await snap('failed');

  // The receiver recovers; the delivery is retried from the log with the same webhook-id.
  down = false;
  await paid.getByRole('button', { name: /^Retry order\.paid delivery/ }).click();
  await expect(toasts.getByText('Delivery sent again')).toBeVisible();
  await expect(paid.getByTestId('delivery-status')).toHaveText('Succeeded', { timeout: 30_000 });
  const attempts = receiver.at(path).filter((r) => JSON.parse(r.body).type === 'order.paid');
  expect(new Set(attempts.map((r) => r.headers['webhook-id'])).size).toBe(1);
  expect(verifiedBody(attempts.at(-1)!, secret)).toMatchObject({
    type: 'order.paid',
    data: { data: { total: 42 } },
  });

  // A test event, verified with the secret shown at creation.
  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(toasts.getByText(/Test event queued/)).toBeVisible();
  const testRow = log.getByRole('row').filter({ hasText: 'webhook.test' });
  await expect(testRow.getByTestId('delivery-status')).toHaveText('Succeeded', {
    timeout: 30_000,
  });
  const testEvent = receiver.at(path).find((r) => JSON.parse(r.body).type === 'webhook.test');
  expect(verifiedBody(testEvent!, secret)).toMatchObject({ type: 'webhook.test' });
  await expect(page.getByTestId('endpoint-state')).toHaveText('Enabled');
  await checkA11y();
  await snap('log');

  // Rotation: a new secret shown once; the old one signs for the overlap chosen.
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  const rotateDialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
  await rotateDialog.getByLabel('Overlap').selectOption('3600');
  await rotateDialog.getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = page.getByRole('dialog', { name: 'New signing secret' });
  const next = (await rotated.getByTestId('signing-secret').textContent()) as string;
  expect(next).toMatch(/^whsec_/);
  expect(next).not.toBe(secret);
  await rotated.getByRole('button', { name: 'I have saved it' }).click();
  await expect(page.getByText('Old secret signs until')).toBeVisible();
  await snap('rotated');
});
