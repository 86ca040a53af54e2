import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { TestStack } from '../helpers/launch-stack.js';
import { expect } from './fixtures.js';

export const PASSWORD = 'correct horse battery';
export const uniqueEmail = (label: string): string =>
  `${label}-${randomUUID().slice(0, 8)}@example.com`;

/** Signs up through the sign-up page; the app opens on the new-project page. */
export async function signUpInBrowser(page: Page, email: string): Promise<void> {
  await page.goto('/app/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'New project' })).toBeVisible();
}

export async function logInInBrowser(page: Page, email: string): Promise<void> {
  await page.goto('/app/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

export async function createProjectInBrowser(page: Page, name: string): Promise<void> {
  await page.goto('/app/projects/new');
  await page.getByLabel('Project name').fill(name);
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByLabel('Project')).toHaveValue(/.+/);
}

/** The verification link of the email the SMTP capture caught for `email`. */
export async function verificationLink(stack: TestStack, email: string): Promise<string> {
  const message = await stack.smtp.waitFor((m) => m.to.includes(email));
  const link = /https?:\/\/\S+\/auth\/verify-email\?token=[A-Za-z0-9_-]+/.exec(
    message.parsed.text ?? '',
  )?.[0];
  if (!link) throw new Error(`No verification link in: ${message.parsed.text}`);
  return link;
}
