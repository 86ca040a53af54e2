import type { Page } from '@playwright/test';
import { DNS_ZONE, expect, test } from './fixtures.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { createProjectInBrowser, signUpInBrowser, uniqueEmail } from './journeys.js';

/** Publishes the records the domain page shows, as its owner would at their DNS host. */
async function publishShownRecords(page: Page, dns: DnsServer): Promise<void> {
  const records = page.getByRole('listitem').filter({ has: page.locator('code') });
  await expect(records.first()).toBeVisible();
  for (const record of await records.all()) {
    const type = (await record.locator('span.font-mono').textContent())?.trim();
    const name = (await record.locator('code').nth(0).textContent()) ?? '';
    const value = (await record.locator('code').nth(1).textContent()) ?? '';
    if (type === 'MX') {
      const [priority, exchange] = value.split(' ');
      dns.publishMx(name, exchange as string, Number(priority));
    } else if (type === 'TXT') dns.publishTxt(name, value);
  }
}

const HOSTILE = `<p>Hostile</p><script>alert('script')</script>
<img src="x" onerror="alert('onerror')" alt="broken">
<a href="javascript:alert('link')">click me</a>`;

test('verify a domain, write a template with a live preview, send a test; hostile HTML runs nothing', async ({
  page,
  stack,
  dns,
  checkA11y,
  snap,
}) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });

  const email = uniqueEmail('templates');
  await signUpInBrowser(page, email);
  await createProjectInBrowser(page, 'Templates project');

  // A sending domain: add it, publish what the page shows, verify now.
  const domain = `news-${Date.now().toString(36)}.${DNS_ZONE}`;
  await page.getByRole('link', { name: 'Domains' }).click();
  await expect(page.getByText('No domains yet')).toBeVisible();
  await checkA11y();
  await page.getByLabel('Domain').fill(domain);
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByRole('heading', { name: domain })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Copy value/ }).first()).toBeVisible();
  await publishShownRecords(page, dns);
  await page.getByRole('button', { name: 'Verify now' }).click();
  await expect(page.getByText('Verified', { exact: true })).toBeVisible();
  await checkA11y();
  await snap('domain-verified');

  // A template: create, then the editor.
  await page.getByRole('link', { name: 'Templates' }).click();
  await expect(page.getByText('No templates yet')).toBeVisible();
  await checkA11y();
  await page.getByRole('button', { name: 'New template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New template' });
  await dialog.getByLabel('Name').fill('Welcome');
  await dialog.getByLabel('Subject').fill('Welcome aboard');
  await dialog.getByLabel('From').fill(`hello@${domain}`);
  await dialog.getByRole('button', { name: 'Create and edit' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();

  const preview = page.frameLocator('iframe[title="Email preview"]');
  await expect(preview.getByRole('heading', { name: 'Hello Jane' })).toBeVisible();
  await expect(page.getByTitle('Email preview')).toHaveAttribute('sandbox', '');

  // The preview follows the subject and the body as they are typed.
  await page.getByLabel('Subject').fill('Hi {{ firstName }}, welcome');
  await expect(page.getByTestId('preview-subject')).toHaveText('Hi Jane, welcome');
  const body = page.getByRole('textbox', { name: 'HTML body' });
  await body.click();
  // The field becomes the code editor (CodeMirror, loaded on first focus) and keeps the focus.
  await expect(page.locator('.cm-content')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('<h2>Glad you came, {{ email }}</h2>');
  await expect(
    preview.getByRole('heading', { name: 'Glad you came, jane.doe@example.com' }),
  ).toBeVisible();
  await checkA11y();
  await snap('editor');

  // A template error shows the API's message, with its line.
  await page.keyboard.type('{% if %}');
  await expect(page.getByRole('alert')).toContainText('Line 1');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('<h2>Glad you came, {{ email }}</h2>');
  await expect(page.getByRole('alert')).toBeHidden();

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('All changes saved')).toBeVisible();
  await page.getByRole('button', { name: 'Send me a test' }).click();
  await expect(page.getByText(`Test sent to ${email}`).first()).toBeVisible();
  const sent = await stack.smtp.waitFor(
    (m) => m.to.includes(email) && m.parsed.subject !== 'Verify your email address',
  );
  expect(sent.parsed.subject).toBe('Hi , welcome');
  expect(sent.parsed.html).toContain(`Glad you came, ${email}`);

  // Hostile HTML in the preview: no script, no handler, no javascript: link runs.
  await body.click();
  // The field becomes the code editor (CodeMirror, loaded on first focus) and keeps the focus.
  await expect(page.locator('.cm-content')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(HOSTILE);
  await expect(preview.getByText('Hostile')).toBeVisible();
  await preview.getByRole('link', { name: 'click me' }).click();
  await expect(preview.getByText('Hostile')).toBeVisible();
  expect(dialogs).toEqual([]);
  // Chromium reports each refused script (blocked by the sandbox, the javascript: link by the
  // CSP); the answers the preview refused (a template typed half-way) are failed loads. Nothing
  // else went wrong, and no script error was thrown.
  const refused =
    /sandbox|Blocked script execution|Content Security Policy|Failed to load resource/i;
  expect(consoleErrors.filter((e) => !refused.test(e))).toEqual([]);
  await expect
    .poll(() => consoleErrors.some((e) => /Content Security Policy|sandbox/i.test(e)))
    .toBe(true);
  expect(pageErrors).toEqual([]);
  await snap('hostile-preview');
});
