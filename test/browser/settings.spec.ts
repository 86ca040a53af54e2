import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import {
  createProjectInBrowser,
  logInInBrowser,
  PASSWORD,
  signUpInBrowser,
  uniqueEmail,
} from './journeys.js';

/** Rotates through the typed confirmation and returns the secret key shown once. */
async function rotateKeys(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Rotate keys' }).click();
  const confirm = page.getByRole('dialog', { name: 'Rotate both keys?' });
  await expect(confirm.getByRole('button', { name: 'Rotate keys' })).toBeDisabled();
  await confirm.getByLabel('Type "rotate" to confirm').fill('rotate');
  await confirm.getByRole('button', { name: 'Rotate keys' }).click();
  const shown = page.getByRole('dialog', { name: 'Your new keys' });
  const secret = (await shown.locator('code').nth(1).textContent()) ?? '';
  expect(secret).toMatch(/^sk_/);
  return secret;
}

test('rotate the keys (old secret refused) and a MEMBER sees no billing or rotation', async ({
  page,
  browser,
  baseURL,
  request,
  checkA11y,
  snap,
}) => {
  const owner = uniqueEmail('owner');
  await signUpInBrowser(page, owner);
  await createProjectInBrowser(page, 'Settings project');
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Billing' })).toBeVisible();
  // Payments off (no Stripe key) is not usage off: the month's usage per category shows.
  await expect(page.getByText(/Payments are off on this installation/)).toBeVisible();
  await expect(page.getByText('transactional', { exact: true })).toBeVisible();
  await checkA11y();
  await snap('owner');

  const contacts = (key: string) =>
    request.get('/contacts', { headers: { Authorization: `Bearer ${key}` } });
  const first = await rotateKeys(page);
  await checkA11y();
  await snap('keys-shown-once');
  await page.getByRole('button', { name: 'I have saved it' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  // Shown once: the page itself holds only the masked key.
  await expect(page.getByText(first)).toHaveCount(0);
  expect((await contacts(first)).status()).toBe(200);

  const second = await rotateKeys(page);
  await page.getByRole('button', { name: 'I have saved it' }).click();
  const refused = await contacts(first);
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe('INVALID_API_KEY');
  expect((await contacts(second)).status()).toBe(200);

  // A member, added by email, sees the keys' public half and the team, nothing an admin does.
  const member = uniqueEmail('member');
  const signup = await request.post('/auth/signup', {
    data: { email: member, password: PASSWORD },
  });
  expect(signup.status()).toBe(201);
  await page.getByLabel('Add by email').fill(member);
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(
    page.getByRole('main').getByRole('listitem').filter({ hasText: member }),
  ).toBeVisible();

  const memberContext = await browser.newContext({ baseURL });
  const memberPage = await memberContext.newPage();
  await logInInBrowser(memberPage, member);
  await expect(memberPage.getByText('Your role: member')).toBeVisible();
  await memberPage.getByRole('link', { name: 'Settings' }).click();
  await expect(memberPage.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(memberPage.getByRole('heading', { name: 'Members' })).toBeVisible();
  await expect(memberPage.getByRole('button', { name: 'Rotate keys' })).toHaveCount(0);
  await expect(memberPage.getByRole('heading', { name: 'Billing' })).toHaveCount(0);
  await expect(memberPage.getByRole('heading', { name: 'Danger zone' })).toHaveCount(0);
  await expect(memberPage.getByLabel('Add by email')).toHaveCount(0);
  await checkA11y(memberPage);
  await snap('member', memberPage);
  await memberContext.close();
});
