import type { Page } from '@playwright/test';
import type { SharedStack } from '../helpers/global-setup.js';
import { sessionCookieOf } from '../helpers/http.js';
import { launchStack, type TestStack } from '../helpers/launch-stack.js';
import { test as base, expect } from './fixtures.js';
import { SHARED_STACK_ENV } from './global-setup.js';
import { logInInBrowser, PASSWORD, uniqueEmail } from './journeys.js';

const TEMPORAL_UI = 'http://127.0.0.1:8233';
const CONTACTS = 30;
/** Contacts 0..23 have `plan` ("pro" for every third, else "basic"); the last six have none. */
const WITH_PLAN = 24;
const emailOf = (i: number) => `bulk${String(i).padStart(2, '0')}@example.com`;

// This file's stack names a Temporal UI, so the dashboard links job runs to it.
const test = base.extend<object, { stack: TestStack }>({
  stack: [
    async ({ dns }, use) => {
      const shared = JSON.parse(process.env[SHARED_STACK_ENV] ?? 'null') as SharedStack | null;
      if (!shared) throw new Error('Run through playwright test: its global setup starts them');
      const stack = await launchStack({
        shared,
        env: { DNS_SERVERS: dns.address, TEMPORAL_UI_URL: TEMPORAL_UI },
      });
      await use(stack);
      await stack.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

/** A user with a project of 30 contacts and a segment reading `plan`, made through the API. */
async function seed(stack: TestStack) {
  const email = uniqueEmail('bulk');
  const signup = await stack.api.post('/auth/signup', { body: { email, password: PASSWORD } });
  expect(signup.status, signup.text).toBe(201);
  const project = await stack.api.post('/users/@me/projects', {
    cookie: sessionCookieOf(signup),
    body: { name: 'Bulk project' },
  });
  expect(project.status, project.text).toBe(201);
  const sk = { key: project.body.secretKey as string };
  const ids: string[] = [];
  for (let i = 0; i < CONTACTS; i++) {
    const data = i < WITH_PLAN ? { plan: i % 3 === 0 ? 'pro' : 'basic' } : {};
    const res = await stack.api.post('/contacts', { ...sk, body: { email: emailOf(i), data } });
    expect(res.status, res.text).toBe(201);
    ids.push(res.body.id as string);
  }
  const segment = await stack.api.post('/segments', {
    ...sk,
    body: {
      name: 'Pro plan',
      filters: {
        operator: 'AND',
        conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }],
      },
    },
  });
  expect(segment.status, segment.text).toBe(201);
  return { email, sk, ids };
}

/** The dark theme on or off, as the theme switch sets it (without reloading the page). */
async function darkTheme(page: Page, on: boolean) {
  await page.evaluate(`document.documentElement.classList.toggle('dark', ${on})`);
}

async function select(page: Page, indexes: number[]) {
  for (const i of indexes) await page.getByLabel(`Select ${emailOf(i)}`).check();
}

/** Starts a job (a bulk action, an import) by `start`; answers the job id the API accepted. */
async function startJob(page: Page, start: () => Promise<void>, path: string): Promise<string> {
  const accepted = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().endsWith(path),
  );
  await start();
  const response = await accepted;
  expect(response.status()).toBe(202);
  return ((await response.json()) as { jobId: string }).jobId;
}

test('bulk unsubscribe and delete with progress, then a field: values, usage, delete', async ({
  page,
  stack,
  checkA11y,
  snap,
}) => {
  test.setTimeout(180_000);
  const { email, sk, ids } = await seed(stack);
  const toasts = page.getByRole('region', { name: /Notifications/ });
  const progress = page.getByRole('region', { name: 'Bulk job' });
  await logInInBrowser(page, email);
  await page.goto('/app/contacts');
  await expect(page.getByText('30 in all')).toBeVisible();
  await checkA11y();
  await snap('list');

  // Select-all covers the rows shown, and clears.
  await page.getByLabel('Select all contacts shown').check();
  await expect(page.getByText('30 contacts selected')).toBeVisible();
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await expect(page.getByRole('region', { name: 'Selected contacts' })).toBeHidden();

  // Unsubscribe five.
  const unsubscribed = [0, 1, 2, 3, 4];
  await select(page, unsubscribed);
  await expect(page.getByText('5 contacts selected')).toBeVisible();
  await expect(page.getByLabel('Select all contacts shown')).toHaveJSProperty(
    'indeterminate',
    true,
  );
  await checkA11y();
  await snap('selected');
  const unsubscribeJob = await startJob(
    page,
    () => page.getByRole('button', { name: 'Unsubscribe' }).click(),
    '/contacts/bulk-unsubscribe',
  );
  await expect(progress.getByTestId('bulk-count')).toHaveText('5 of 5 · done');
  await expect(progress.getByText('Unsubscribed 5 contacts.')).toBeVisible();
  await expect(toasts.getByText('Unsubscribed 5 contacts.')).toBeVisible();
  await expect(progress.getByRole('link', { name: /View run in Temporal UI/ })).toHaveAttribute(
    'href',
    `${TEMPORAL_UI}/namespaces/default/workflows/job-${unsubscribeJob}`,
  );
  await expect(page.getByRole('region', { name: 'Selected contacts' })).toBeHidden();
  for (const i of unsubscribed) {
    const contact = await stack.api.get(`/contacts/${ids[i]}`, sk);
    expect(contact.body.subscribed, emailOf(i)).toBe(false);
  }
  expect((await stack.api.get('/contacts?subscribed=false', sk)).body.total).toBe(5);
  await checkA11y();
  await snap('unsubscribed');
  await darkTheme(page, true);
  await checkA11y();
  await snap('unsubscribed-dark');
  await darkTheme(page, false);
  await page.getByLabel('Subscription').selectOption('unsubscribed');
  await expect(page.getByText('5 matching')).toBeVisible();
  await page.getByLabel('Subscription').selectOption('');
  await progress.getByRole('button', { name: 'Dismiss' }).click();
  await expect(progress).toBeHidden();

  // Delete three, behind the confirmation.
  const deleted = [10, 11, 12];
  await select(page, deleted);
  await page.getByRole('button', { name: 'Delete…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 3 contacts?' });
  await expect(confirm).toBeVisible();
  await checkA11y();
  await snap('delete-confirm');
  const deleteJob = await startJob(
    page,
    () => confirm.getByRole('button', { name: 'Delete 3 contacts' }).click(),
    '/contacts/bulk-delete',
  );
  await expect(confirm).toBeHidden();
  await expect(progress.getByTestId('bulk-count')).toHaveText('3 of 3 · done');
  await expect(toasts.getByText('Deleted 3 contacts.')).toBeVisible();
  await expect(page.getByText('27 in all')).toBeVisible();
  for (const i of deleted) {
    await expect(page.getByRole('link', { name: emailOf(i) })).toHaveCount(0);
    expect((await stack.api.get(`/contacts/${ids[i]}`, sk)).status, emailOf(i)).toBe(404);
  }
  await expect(progress.getByRole('link', { name: /View run in Temporal UI/ })).toHaveAttribute(
    'href',
    new RegExp(`/workflows/job-${deleteJob}$`),
  );
  expect((await stack.api.get('/contacts', sk)).body.total).toBe(27);

  // The fields page: 21 of the 27 contacts left have a plan (three of those deleted had one).
  await page.getByRole('link', { name: 'Fields' }).click();
  await expect(page.getByRole('heading', { name: 'Contact fields' })).toBeVisible();
  const planRow = page.getByRole('row').filter({ hasText: 'plan' });
  await expect(planRow.getByRole('cell', { name: 'string', exact: true })).toBeVisible();
  await expect(planRow.getByText('77.8%')).toBeVisible();
  await checkA11y();
  await snap('fields');
  await darkTheme(page, true);
  await checkA11y();
  await snap('fields-dark');
  await darkTheme(page, false);

  await page.getByRole('button', { name: 'Values and usage of plan' }).click();
  const details = page.getByRole('dialog', { name: 'Field "plan"' });
  await expect(details.getByRole('row').filter({ hasText: 'basic' })).toContainText('14');
  await expect(details.getByRole('row').filter({ hasText: 'pro' })).toContainText('7');
  await expect(details.getByTestId('field-usage')).toContainText('Pro plan');
  await checkA11y();
  await snap('field-details');
  await details.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Delete plan' }).click();
  const removal = page.getByRole('dialog', { name: 'Delete the field "plan"?' });
  await expect(removal.getByTestId('field-usage')).toContainText('Pro plan');
  await checkA11y();
  await snap('field-delete');
  await darkTheme(page, true);
  await checkA11y();
  await snap('field-delete-dark');
  await darkTheme(page, false);
  await removal.getByRole('button', { name: 'Delete field' }).click();
  await expect(removal).toBeHidden();
  await expect(toasts.getByText('Removed "plan" from 21 contacts.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'plan' })).toHaveCount(0);
  const fields = (await stack.api.get('/contacts/fields', sk)).body.fields as { name: string }[];
  expect(fields.map((f) => f.name)).not.toContain('plan');
  await expect(page.getByText('No custom fields yet')).toBeVisible();
  await checkA11y();
  await snap('fields-after-delete');

  // The import progress links its run too.
  await page.getByRole('link', { name: '← Contacts' }).click();
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts' });
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'more.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('email,plan\nlate1@example.com,pro\nlate2@example.com,basic\n'),
  });
  const importJob = await startJob(
    page,
    () => dialog.getByRole('button', { name: 'Upload and import' }).click(),
    '/contacts/import',
  );
  await expect(dialog.getByText('Import finished')).toBeVisible();
  await expect(dialog.getByRole('link', { name: /View run in Temporal UI/ })).toHaveAttribute(
    'href',
    `${TEMPORAL_UI}/namespaces/default/workflows/job-${importJob}`,
  );
  await checkA11y();
  await snap('import-done');
});
