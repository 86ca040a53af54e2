import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import type { DnsServer } from '../helpers/dns-server.js';
import type { TestStack } from '../helpers/launch-stack.js';
import { DNS_ZONE, expect } from './fixtures.js';

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

/** A project made with the browser's session, and its secret key's Authorization header. */
export async function projectWithKey(
  page: Page,
  name = 'Activity project',
): Promise<Record<string, string>> {
  const created = await page.request.post('/users/@me/projects', { data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const { secretKey } = (await created.json()) as { secretKey: string };
  return { Authorization: `Bearer ${secretKey}` };
}

/** A sending domain: added, its records published on the test DNS server, verified. */
export async function verifiedDomain(
  request: APIRequestContext,
  headers: Record<string, string>,
  dns: DnsServer,
): Promise<string> {
  const domain = `news-${randomUUID().slice(0, 8)}.${DNS_ZONE}`;
  const added = await request.post('/domains', { headers, data: { domain } });
  expect(added.status(), await added.text()).toBe(201);
  const { id, records } = (await added.json()) as {
    id: string;
    records: { type: string; name: string; value: string }[];
  };
  for (const record of records) {
    if (record.type === 'MX') {
      const [priority, exchange] = record.value.split(' ');
      dns.publishMx(record.name, exchange as string, Number(priority));
    } else dns.publishTxt(record.name, record.value);
  }
  const verified = await request.get(`/domains/${id}/verify`, { headers });
  expect(((await verified.json()) as { status: string }).status).toBe('VERIFIED');
  return domain;
}
