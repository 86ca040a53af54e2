import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { PASSWORD, uniqueEmail } from './journeys.js';

/** Presses Tab until `target` has the focus (a keyboard user's way there); fails past `max`. */
async function tabTo(page: Page, target: Locator, max = 40): Promise<void> {
  const focused = page.locator(':focus');
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if ((await target.and(focused).count()) === 1) return;
  }
  throw new Error(`${String(target)} never got the focus in ${max} Tab presses`);
}

test('log in and create a contact with the keyboard alone, then the dark theme passes axe', async ({
  page,
  request,
  checkA11y,
  snap,
}) => {
  // The account and its project come from the API; everything in the browser is keyboard.
  const email = uniqueEmail('keys');
  expect(
    (await request.post('/auth/signup', { data: { email, password: PASSWORD } })).status(),
  ).toBe(201);
  const created = await request.post('/users/@me/projects', { data: { name: 'Keyboard' } });
  expect(created.status()).toBe(201);
  const { secretKey } = (await created.json()) as { secretKey: string };
  const auth = { Authorization: `Bearer ${secretKey}` };

  await page.goto('/app/login');
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await tabTo(page, page.getByLabel('Email', { exact: true }));
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/app\/$/);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // To the contacts by the main navigation, then the new-contact dialog: Tab, Space, Enter only.
  await tabTo(page, page.getByRole('link', { name: 'Contacts' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'New contact' }));
  await page.keyboard.press('Space');
  const dialog = page.getByRole('dialog', { name: 'New contact' });
  await expect(dialog).toBeVisible();
  const contact = uniqueEmail('typed');
  await tabTo(page, dialog.getByLabel('Email', { exact: true }), 5);
  await page.keyboard.type(contact);
  await page.keyboard.press('Tab');
  const subscribed = dialog.getByLabel('Subscribed to marketing email');
  await expect(subscribed).toBeFocused();
  await expect(subscribed).toBeChecked();
  await page.keyboard.press('Space');
  await expect(subscribed).not.toBeChecked();
  await tabTo(page, dialog.getByRole('button', { name: 'Create contact' }), 5);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: contact })).toBeVisible();

  const found = await request.get(`/contacts?search=${encodeURIComponent(contact)}`, {
    headers: auth,
  });
  expect(found.status()).toBe(200);
  const { data } = (await found.json()) as { data: { email: string; subscribed: boolean }[] };
  expect(data.map((c) => [c.email, c.subscribed])).toEqual([[contact, false]]);

  // The dark theme from the user menu's toggle (by keyboard too), on the account page.
  await page.goto('/app/account');
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Dark theme' }));
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('button', { name: 'Light theme' })).toBeFocused();
  await checkA11y();
  await snap('account-dark');

  await page.goto('/app/contacts');
  await expect(page.getByText(contact).first()).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await checkA11y();
  await snap('contacts-dark');
  await page.getByRole('button', { name: 'New contact' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'New contact' })).toBeVisible();
  await checkA11y();
  await snap('new-contact-dark');
});
