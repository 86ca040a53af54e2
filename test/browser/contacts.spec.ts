import { expect, test } from './fixtures.js';
import { createProjectInBrowser, signUpInBrowser, uniqueEmail } from './journeys.js';

const ROWS = 1000;
const csv = [
  'email,first_name,plan',
  ...Array.from({ length: ROWS }, (_, i) => `person${i}@import.example,Person ${i},basic`),
].join('\n');

test('import 1,000 contacts with a preview and progress, then find one and edit a field', async ({
  page,
  checkA11y,
  snap,
}) => {
  await signUpInBrowser(page, uniqueEmail('contacts'));
  await createProjectInBrowser(page, 'Contacts project');

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Contacts' })
    .click();
  await expect(page.getByText('No contacts yet')).toBeVisible();
  await checkA11y();
  await snap('empty');

  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts' });
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'people.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await expect(dialog.getByText(`1,000 rows, columns: email, first_name, plan`)).toBeVisible();
  await expect(dialog.getByRole('cell', { name: 'person0@import.example' })).toBeVisible();
  await checkA11y();
  await snap('import-preview');

  await dialog.getByRole('button', { name: 'Upload and import' }).click();
  await expect(dialog.getByTestId('import-count')).toHaveText('1,000 of 1,000 rows', {
    timeout: 60_000,
  });
  await expect(dialog.getByText('Import finished')).toBeVisible();
  await expect(dialog.getByText('1,000 created')).toBeVisible();
  await snap('import-done');
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByText('1,000 in all')).toBeVisible();
  await checkA11y();
  await snap('list');

  // The subscription filter: the import subscribed everyone.
  await page.getByLabel('Subscription').selectOption('unsubscribed');
  await expect(page.getByText('No contact matches')).toBeVisible();
  await page.getByLabel('Subscription').selectOption('subscribed');
  await expect(page.getByText('1,000 matching')).toBeVisible();
  await page.getByLabel('Subscription').selectOption('');

  await page.getByLabel('Search contacts by email').fill('person417@');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('1 matching')).toBeVisible();
  await page.getByRole('link', { name: 'person417@import.example' }).click();
  await expect(page.getByRole('heading', { name: 'person417@import.example' })).toBeVisible();
  await expect(page.getByText('Person 417')).toBeVisible();

  await page.getByRole('button', { name: 'Edit plan' }).click();
  await page.getByLabel('Value of plan').fill('premium');
  const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.ok());
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await saved;
  await page.reload();
  await expect(page.getByRole('heading', { name: 'person417@import.example' })).toBeVisible();
  await expect(page.getByText('premium')).toBeVisible();
  await checkA11y();
  await snap('contact');
});
