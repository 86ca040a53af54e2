import { expect, test } from './fixtures.js';
import { PASSWORD, signUpInBrowser, uniqueEmail, verificationLink } from './journeys.js';

test('sign up, verify from the email, log out, log in and create a project', async ({
  page,
  stack,
  checkA11y,
  snap,
}) => {
  await page.goto('/app/');
  await expect(page).toHaveURL(/\/app\/login$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await checkA11y();
  await snap('login');

  const email = uniqueEmail('journey');
  await page.getByRole('link', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await checkA11y();
  await snap('signup');
  // The server's field errors land on the field: a password too short for the API.
  await signUpInBrowser(page, email);
  await expect(page.getByText('Email not verified yet')).toBeVisible();
  await checkA11y();
  await snap('new-project');

  // The link in the email the SMTP capture caught opens the verification page.
  await page.goto(await verificationLink(stack, email));
  await page.getByRole('button', { name: 'Verify my email' }).click();
  await expect(page.getByRole('status')).toHaveText(/Done/);

  await page.goto('/app/projects/new');
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await page.goto('/app/projects/new');
  await expect(page).toHaveURL(/\/app\/login$/);

  // A wrong password shows the API's message.
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await snap('login-error');

  // Log in with the keyboard alone: focus moves from the email field to the button by Tab.
  await page.getByLabel('Email').fill('');
  await page.getByLabel('Password').fill('');
  await page.getByLabel('Email').focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByText('Email not verified yet')).toBeHidden();
  // Create the project with the keyboard alone too.
  await page.goto('/app/projects/new');
  await page.getByLabel('Project name').focus();
  await page.keyboard.type('Journey project');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByText('Verify your email address')).toBeVisible();
  await expect(page.getByText('Verify a sending domain')).toBeVisible();
  await expect(page.getByText('(done)')).toHaveCount(1);
  await checkA11y();
  await snap('overview');

  // The dark theme, kept across a reload, also passes axe.
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Light theme' })).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await checkA11y();
  await snap('overview-dark');
});
