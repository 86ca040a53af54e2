import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { ensureSelfSignedCertificate } from '../../runtime/embedded/self-signed-certificate.js';
import { freePort } from '../../runtime/embedded/free-port.js';
import { certificateSha256 } from '../../runtime/submission-tls.js';
import type { SharedStack } from '../helpers/global-setup.js';
import { launchStack, type TestStack } from '../helpers/launch-stack.js';
import { expect, test as base } from './fixtures.js';
import { SHARED_STACK_ENV } from './global-setup.js';
import { projectWithKey, signUpInBrowser, uniqueEmail, verifiedDomain } from './journeys.js';

// SMTP submission (issue 26): the Settings card that tells an app where to send over SMTP. This
// file's stack runs submission (the shared fixture's does not), with a self-signed certificate.

const test = base.extend<object, { stack: TestStack; certDir: string }>({
  /** Where the servers' certificate and key are (cert.pem, key.pem), made as `npm start` does. */
  certDir: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern
    async ({}, use) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'mailwright-browser-tls-'));
      await ensureSelfSignedCertificate({ dir, hostname: 'localhost' });
      await use(dir);
      await rm(dir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  stack: [
    async ({ dns, certDir }, use) => {
      const shared = JSON.parse(process.env[SHARED_STACK_ENV] ?? 'null') as SharedStack | null;
      if (!shared)
        throw new Error('Run through playwright test: its global setup starts the services');
      const stack = await launchStack({
        shared,
        env: {
          DNS_SERVERS: dns.address,
          SMTP_SUBMISSION_PORT: String(await freePort()),
          SMTP_SUBMISSION_TLS_PORT: String(await freePort()),
          SMTP_TLS_CERT: path.join(certDir, 'cert.pem'),
          SMTP_TLS_KEY: path.join(certDir, 'key.pem'),
          SMTP_SUBMISSION_HOST: '127.0.0.1',
        },
      });
      await use(stack);
      await stack.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

test('Settings shows where to send over SMTP, and an app sends with what it shows', async ({
  page,
  request,
  stack,
  dns,
  certDir,
  checkA11y,
  snap,
}) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await signUpInBrowser(page, uniqueEmail('smtp'));
  const headers = await projectWithKey(page, 'SMTP project');
  const secretKey = headers.Authorization?.replace('Bearer ', '') as string;
  const cert = await readFile(path.join(certDir, 'cert.pem'), 'utf8');

  await page.goto('/app/settings');
  const card = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Sending over SMTP' }) });
  await expect(card).toBeVisible();
  await expect(card.getByText('127.0.0.1', { exact: true })).toBeVisible();
  await expect(card.getByText(`${stack.env.SMTP_SUBMISSION_PORT} with STARTTLS`)).toBeVisible();
  await expect(card.getByText(`${stack.env.SMTP_SUBMISSION_TLS_PORT} with TLS`)).toBeVisible();
  await expect(card.getByText('mailwright', { exact: true })).toBeVisible();
  // The password is the secret key, masked as everywhere after its creation.
  await expect(card.getByText(`sk_••••••••${secretKey.slice(-4)}`)).toBeVisible();
  await expect(card.getByText(certificateSha256(cert))).toBeVisible();
  await checkA11y();
  await snap('settings');

  // An app configured from the card: host and STARTTLS port as shown, the secret key.
  const host = (await card.locator('dd code').first().textContent()) as string;
  const port = Number(/(\d+) with STARTTLS/.exec((await card.textContent()) ?? '')?.[1]);
  const domain = await verifiedDomain(request, headers, dns);
  const to = uniqueEmail('reader');
  const transport = nodemailer.createTransport({
    host,
    port,
    secure: false,
    requireTLS: true,
    tls: { ca: cert },
    auth: { user: 'mailwright', pass: secretKey },
  });
  try {
    await transport.sendMail({ from: `app@${domain}`, to, subject: 'From the card', text: 'Hi' });
  } finally {
    transport.close();
  }
  const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
  expect(mail.parsed.subject).toBe('From the card');
  expect(pageErrors).toEqual([]);
});
