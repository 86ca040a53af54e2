import { randomUUID } from 'node:crypto';
import { freePort } from '../../runtime/embedded/free-port.js';
import type { SharedStack } from '../helpers/global-setup.js';
import { launchStack } from '../helpers/launch-stack.js';
import { dsnMessage, outOfOfficeMessage } from '../helpers/report-messages.js';
import { deliverToInbound } from '../helpers/return-path-mail.js';
import { expect, test as base } from './fixtures.js';
import { SHARED_STACK_ENV } from './global-setup.js';
import { projectWithKey, signUpInBrowser, uniqueEmail, verifiedDomain } from './journeys.js';

// The delivery reports made visible (issue 30): bounce reports, an automatic reply and a report
// about someone else sent over SMTP to an email's return path, as remote systems send them, then
// read in the dashboard beside the suppression list, each with its message.

/** This file's stack receives inbound mail (and so gives its domains a return path). */
const test = base.extend<object, { inboundPort: number }>({
  inboundPort: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern
    async ({}, use) => use(await freePort()),
    { scope: 'worker' },
  ],
  stack: [
    async ({ dns, inboundPort }, use) => {
      const shared = JSON.parse(process.env[SHARED_STACK_ENV] ?? 'null') as SharedStack | null;
      if (!shared)
        throw new Error('Run through playwright test: its global setup starts the services');
      const stack = await launchStack({
        shared,
        env: {
          DNS_SERVERS: dns.address,
          INBOUND_SMTP_PORT: String(inboundPort),
          INBOUND_MX_HOST: 'mx.browser.test',
        },
      });
      await use(stack);
      await stack.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

test('delivery reports are listed beside the suppressions, filtered, and read with their message', async ({
  page,
  request,
  stack,
  dns,
  inboundPort,
  checkA11y,
  snap,
}) => {
  await signUpInBrowser(page, uniqueEmail('reports'));
  const headers = await projectWithKey(page, 'Reports project');
  const domain = await verifiedDomain(request, headers, dns);

  await page.goto('/app/suppressions/reports');
  await expect(page.getByRole('heading', { name: 'Suppressions' })).toBeVisible();
  const tabs = page.getByRole('navigation', { name: 'Bounces and complaints' });
  await expect(tabs.getByRole('link', { name: 'Delivery reports' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByText('No delivery reports yet')).toBeVisible();
  await checkA11y();
  await snap('empty');

  // Two emails from the domain, each with its own return path.
  const tag = randomUUID().slice(0, 8);
  const gone = `gone-${tag}@example.com`;
  const away = `away-${tag}@example.com`;
  const returnPaths = new Map<string, string>();
  const emailIds = new Map<string, string>();
  for (const to of [gone, away]) {
    const res = await request.post('/v1/send', {
      headers,
      data: { to, subject: `Hello ${to}`, body: '<p>Hi</p>', from: `hello@${domain}` },
    });
    expect(res.status(), await res.text()).toBe(200);
    const body = (await res.json()) as { data: { emails: { email: string }[] } };
    emailIds.set(to, body.data.emails[0]?.email as string);
    const captured = await stack.smtp.waitFor((m) => m.to.includes(to));
    expect(captured.from).toMatch(new RegExp(`@rp\\.${domain.replace(/\./g, '\\.')}$`));
    returnPaths.set(to, captured.from);
  }
  const deliver = (raw: string, rcpt: string) => deliverToInbound({ port: inboundPort, raw, rcpt });
  const goneRp = returnPaths.get(gone) as string;
  const awayRp = returnPaths.get(away) as string;
  // Oldest first: a bounce (applied), an out-of-office reply (ignored), a bounce report about
  // someone else (undetermined).
  await deliver(dsnMessage({ to: goneRp, recipient: gone }), goneRp);
  await deliver(outOfOfficeMessage({ to: awayRp, recipient: away }), awayRp);
  await deliver(dsnMessage({ to: awayRp, recipient: `stranger-${tag}@remote.test` }), awayRp);

  await page.reload();
  await expect(page.getByText('3 reports, newest first')).toBeVisible();
  const table = page.getByRole('table', { name: 'Delivery reports' });
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(4); // the header and three reports
  // Columns: About, Outcome (with why), Read as, Received.
  await expect(rows.nth(1).getByRole('cell').nth(0)).toContainText(away);
  await expect(rows.nth(1).getByRole('cell').nth(1)).toHaveText(
    "UndeterminedThe report does not name the email's recipient",
  );
  await expect(rows.nth(1).getByRole('cell').nth(2)).toHaveText('Bounce report (DSN)');
  await expect(rows.nth(2).getByRole('cell').nth(1)).toHaveText('IgnoredAn automatic reply');
  await expect(rows.nth(2).getByRole('cell').nth(2)).toHaveText('Automatic reply');
  await expect(rows.nth(3).getByRole('cell').nth(0)).toContainText(gone);
  await expect(rows.nth(3).getByRole('cell').nth(1)).toHaveText('Applied');
  await checkA11y();
  await snap('list');

  // The outcome filter: the one that needs a person's eyes.
  const outcome = page.getByLabel('Outcome');
  await outcome.selectOption('undetermined');
  await expect(page.getByText('1 matching, newest first')).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(away);
  await checkA11y();
  await snap('filtered');

  // Its page: what became of it and why, and the message as it arrived.
  await rows
    .nth(1)
    .getByRole('link', { name: /^View report/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Delivery report' })).toBeVisible();
  await expect(page.getByText(`About the email to ${away}`)).toBeVisible();
  await expect(page.getByText("The report does not name the email's recipient")).toBeVisible();
  await expect(page.getByText(awayRp, { exact: true })).toBeVisible();
  const message = page.getByLabel('The report as it arrived');
  await expect(message).toContainText(`Final-Recipient: rfc822; stranger-${tag}@remote.test`);
  await expect(message).toContainText(
    'Content-Type: multipart/report; report-type=delivery-status',
  );
  const download = page.getByRole('link', { name: 'Download .eml' });
  await expect(download).toHaveAttribute('download', /^report-[0-9a-f-]{36}\.eml$/);
  await checkA11y();
  await snap('report');
  // Its email opens on the message page.
  await page.getByRole('link', { name: 'View email' }).click();
  await expect(page).toHaveURL(
    new RegExp(`/app/activity/messages/${emailIds.get(away) as string}$`),
  );

  // The suppressed address leads to the report it came from.
  await page.goto('/app/suppressions');
  await expect(tabs.getByRole('link', { name: 'Suppressed addresses' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const suppressed = page
    .getByRole('table', { name: 'Suppressed addresses' })
    .getByRole('row')
    .filter({ hasText: gone });
  await expect(suppressed.getByRole('cell').nth(1)).toHaveText(
    'Hard bounceVia Bounce report (DSN)',
  );
  await checkA11y();
  await snap('suppressions');
  await suppressed.getByRole('link', { name: `View report behind ${gone}` }).click();
  await expect(page.getByRole('heading', { name: 'Delivery report' })).toBeVisible();
  await expect(page.getByText(`About the email to ${gone}`)).toBeVisible();
  await expect(page.getByLabel('The report as it arrived')).toContainText(
    `Final-Recipient: rfc822; ${gone}`,
  );
  await checkA11y();

  const reportUrl = page.url();

  // The bounce in the activity feed, and among its email's events, leads to the same report.
  await page.goto('/app/activity?type=bounced');
  const bounce = page
    .getByRole('list', { name: 'Activity' })
    .getByRole('listitem')
    .filter({ hasText: gone });
  await expect(bounce).toHaveCount(1);
  await checkA11y();
  await snap('bounce-in-feed');
  await bounce.getByRole('link', { name: `View the report behind this bounce of ${gone}` }).click();
  await expect(page).toHaveURL(reportUrl);
  await expect(page.getByText(`About the email to ${gone}`)).toBeVisible();
  await page.goto(`/app/activity/messages/${emailIds.get(gone) as string}`);
  await page
    .getByRole('list', { name: 'Events of this email' })
    .getByRole('link', { name: 'View the report behind email.bounced' })
    .click();
  await expect(page).toHaveURL(reportUrl);

  // Another project's report is not found.
  const other = await projectWithKey(page, 'Other project');
  const listed = (await (await request.get('/delivery-reports', { headers })).json()) as {
    data: { id: string }[];
  };
  const reportId = reportUrl.split('/').pop() as string;
  expect(listed.data.map((r) => r.id)).toContain(reportId);
  const foreign = await request.get(`/delivery-reports/${reportId}`, { headers: other });
  expect(foreign.status()).toBe(404);
});
