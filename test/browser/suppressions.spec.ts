import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures.js';
import {
  logInInBrowser,
  PASSWORD,
  projectWithKey,
  uniqueEmail,
  signUpInBrowser,
  verifiedDomain,
} from './journeys.js';
import { signedEmailCallback } from '../helpers/email-callback.js';

// The suppression list people manage and the bounce policy that fills it (issue 30): entries made
// the way production makes them (a relay refusing an address, signed delivery reports), shown
// with their reason and evidence, filtered, lifted; the policy saved and its limits enforced.

const DIAGNOSTIC =
  '5.1.1 <dead>: Recipient address rejected: User unknown in virtual mailbox table; the mailbox was removed';

/** Sends one email to `to` and answers its id once the SMTP server has answered it. */
async function sendTo(
  request: APIRequestContext,
  headers: Record<string, string>,
  domain: string,
  to: string,
  status: 'SENT' | 'BOUNCED' = 'SENT',
): Promise<string> {
  const res = await request.post('/v1/send', {
    headers,
    data: { to, subject: `Hello ${to}`, body: '<p>Hi</p>', from: `hello@${domain}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  const emailId = ((await res.json()) as { data: { emails: { email: string }[] } }).data.emails[0]
    ?.email as string;
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/emails/${emailId}`, { headers })).json()) as {
            status: string;
          }
        ).status,
      { timeout: 30_000 },
    )
    .toBe(status);
  return emailId;
}

test('the suppression list shows reasons and evidence, filters, lifts; the bounce policy saves', async ({
  page,
  browser,
  baseURL,
  request,
  stack,
  dns,
  checkA11y,
  snap,
}) => {
  const toasts = page.getByRole('region', { name: /Notifications/ });
  await signUpInBrowser(page, uniqueEmail('suppressions'));
  const headers = await projectWithKey(page, 'Suppressions project');
  const domain = await verifiedDomain(request, headers, dns);

  await page.goto('/app/suppressions');
  await expect(page.getByRole('heading', { name: 'Suppressions' })).toBeVisible();
  await expect(page.getByText('No suppressed addresses')).toBeVisible();
  await expect(page.getByRole('link', { name: 'bounce policy', exact: true })).toBeVisible();
  await checkA11y();
  await snap('empty');

  const tag = randomUUID().slice(0, 8);
  const dead = `dead-${tag}@example.com`;
  const bounced = `bounced-${tag}@example.com`;
  const spam = `spam-${tag}@example.com`;
  const soft = `soft-${tag}@example.com`;

  // A relay refusing an address: a hard bounce with the relay's code, status and words.
  stack.smtp.setResponder((message) => {
    if (message.to.includes(dead)) {
      throw Object.assign(new Error(DIAGNOSTIC), { responseCode: 550 });
    }
  });
  let deadEmailId: string;
  try {
    deadEmailId = await sendTo(request, headers, domain, dead, 'BOUNCED');
  } finally {
    stack.smtp.setResponder(undefined);
  }

  // Signed delivery reports (POST /webhooks/email) for the rest; one soft bounce suppresses.
  const limitOne = await request.put('/bounce-policy', { headers, data: { softBounceLimit: 1 } });
  expect(limitOne.status(), await limitOne.text()).toBe(200);
  const report = async (body: Record<string, unknown>) => {
    const { rawBody, headers: signature } = signedEmailCallback(body, {
      secret: stack.env.EMAIL_WEBHOOK_SECRET as string,
    });
    const res = await request.post('/webhooks/email', {
      data: rawBody,
      headers: { 'Content-Type': 'application/json', ...signature },
    });
    expect(res.status(), await res.text()).toBe(200);
    expect(((await res.json()) as { applied: boolean }).applied).toBe(true);
  };
  await report({ type: 'bounced', emailId: await sendTo(request, headers, domain, bounced) });
  await report({ type: 'complained', emailId: await sendTo(request, headers, domain, spam) });
  await report({
    type: 'bounced',
    bounceType: 'soft',
    emailId: await sendTo(request, headers, domain, soft),
  });

  await page.reload();
  await expect(page.getByText('4 suppressed, newest first')).toBeVisible();
  const table = page.getByRole('table', { name: 'Suppressed addresses' });
  const row = (email: string) => table.getByRole('row').filter({ hasText: email });
  await expect(table.getByRole('row')).toHaveCount(5); // the header and four entries
  // Newest first.
  await expect(table.getByRole('row').nth(1)).toContainText(soft);
  await expect(table.getByRole('row').nth(4)).toContainText(dead);

  const deadRow = row(dead);
  // Columns: Address, Reason (with its source), Suppressed, Evidence, Action.
  const reasonOf = (email: string) => row(email).getByRole('cell').nth(1);
  await expect(reasonOf(dead)).toHaveText('Hard bounceVia SMTP relay');
  const evidence = deadRow.getByRole('cell').nth(3);
  await expect(evidence.getByText('550', { exact: true })).toBeVisible();
  await expect(evidence.getByText('5.1.1', { exact: true })).toBeVisible();
  // The diagnostic is cut to a line, whole on hover and behind its toggle.
  const diagnostic = evidence.getByText(/Recipient address rejected/);
  await expect(diagnostic).toHaveAttribute('title', /the mailbox was removed/);
  const toggle = evidence.getByRole('button', { name: /Show full text/ });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(evidence.getByRole('button', { name: /Show less/ })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expect(diagnostic).not.toHaveAttribute('title');
  // A complaint report carries no evidence beyond its source.
  await expect(reasonOf(spam)).toContainText('Complaint');
  await expect(reasonOf(spam)).toContainText('Delivery webhook');
  await expect(reasonOf(soft)).toHaveText('Soft bouncesVia Delivery webhook');
  await expect(reasonOf(bounced)).toHaveText('Hard bounceVia Delivery webhook');
  await expect(row(bounced).getByRole('cell').nth(3)).toHaveText('None recorded');
  await checkA11y();
  await snap('list');

  // The email behind an entry opens on its message page.
  await deadRow.getByRole('link', { name: `View email to ${dead}` }).click();
  await expect(page).toHaveURL(new RegExp(`/app/activity/messages/${deadEmailId}$`));
  await expect(page.getByRole('heading', { name: `Hello ${dead}` })).toBeVisible();
  await page.goBack();

  // The reason filter narrows the list.
  const reason = page.getByLabel('Reason');
  await reason.selectOption('complaint');
  await expect(page.getByText('1 matching, newest first')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(row(spam)).toBeVisible();
  await reason.selectOption('hard_bounce');
  await expect(page.getByText('2 matching, newest first')).toBeVisible();
  await expect(row(dead)).toBeVisible();
  await expect(row(bounced)).toBeVisible();
  await expect(row(spam)).toHaveCount(0);
  await checkA11y();
  await snap('filtered');
  await reason.selectOption('');
  await expect(page.getByText('4 suppressed, newest first')).toBeVisible();

  // Lift one: a confirmation that says what it means, a toast, the row gone, the API agrees.
  await row(bounced)
    .getByRole('button', { name: `Lift ${bounced}` })
    .click();
  const confirm = page.getByRole('dialog', { name: `Lift the suppression of ${bounced}?` });
  await expect(confirm.getByText(/Mail will go to this address again/)).toBeVisible();
  await checkA11y();
  await snap('lift-dialog');
  await confirm.getByRole('button', { name: 'Lift suppression' }).click();
  await expect(confirm).toBeHidden();
  await expect(toasts.getByText(`${bounced} can receive mail again`)).toBeVisible();
  await expect(row(bounced)).toHaveCount(0);
  await expect(page.getByText('3 suppressed, newest first')).toBeVisible();
  const again = await request.delete(`/suppressions/${encodeURIComponent(bounced)}`, { headers });
  expect(again.status()).toBe(404);
  const listed = (await (await request.get('/suppressions', { headers })).json()) as {
    total: number;
  };
  expect(listed.total).toBe(3);

  // The bounce policy: saved through the form, refused past the API's limits.
  // The list's "Bounce policy" link opens the settings page at the policy's card.
  await page.getByRole('link', { name: 'Bounce policy', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/settings#bounce-policy$/);
  const card = page.getByRole('form', { name: 'Bounce policy' });
  await expect(card).toBeInViewport({ ratio: 1 });
  const hard = card.getByLabel('Suppress an address at its first hard bounce');
  const limit = card.getByLabel('Suppress after this many soft bounces');
  const days = card.getByLabel('Within this many days');
  await expect(hard).toBeChecked();
  await expect(limit).toHaveValue('1');
  await expect(days).toHaveValue('30');
  await hard.uncheck();
  await limit.fill('5');
  await days.fill('14');
  await card.getByRole('button', { name: 'Save policy' }).click();
  const saved = toasts.getByRole('listitem').filter({ hasText: 'Bounce policy saved' });
  await expect(saved).toBeVisible();
  // The pointer over a toast holds its five seconds (a loaded machine may take longer to shoot).
  await saved.hover();
  await page.screenshot({
    path: path.join(import.meta.dirname, 'screenshots', 'suppressions--toast--1280.png'),
  });
  // A toast closes at once with its button, not only after its five seconds.
  await saved.getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(toasts.getByText('Bounce policy saved')).toBeHidden();
  const policy = async () => (await request.get('/bounce-policy', { headers })).json();
  expect(await policy()).toEqual({
    suppressHardBounces: false,
    softBounceLimit: 5,
    softBounceWindowDays: 14,
  });

  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().endsWith('/bounce-policy')) puts.push(r.url());
  });
  await limit.fill('101');
  await days.fill('0');
  await card.getByRole('button', { name: 'Save policy' }).click();
  await expect(card.getByText('Enter a whole number from 1 to 100')).toBeVisible();
  await expect(card.getByText('Enter a whole number from 1 to 365')).toBeVisible();
  await expect(limit).toHaveAttribute('aria-invalid', 'true');
  await expect(limit).toBeFocused();
  expect(puts).toEqual([]);
  expect(await policy()).toEqual({
    suppressHardBounces: false,
    softBounceLimit: 5,
    softBounceWindowDays: 14,
  });
  await checkA11y();
  await snap('policy-refused');

  // A member sees the list and the policy, and can change neither.
  const projects = (await (await page.request.get('/users/@me/projects')).json()) as {
    id: string;
  }[];
  const member = uniqueEmail('member');
  const signup = await request.post('/auth/signup', {
    data: { email: member, password: PASSWORD },
  });
  expect(signup.status()).toBe(201);
  const added = await page.request.post(`/projects/${projects[0]?.id}/members`, {
    data: { email: member, role: 'MEMBER' },
  });
  expect(added.status(), await added.text()).toBe(201);
  const memberContext = await browser.newContext({ baseURL });
  const memberPage = await memberContext.newPage();
  await logInInBrowser(memberPage, member);
  await memberPage.goto('/app/suppressions');
  await expect(memberPage.getByText('3 suppressed, newest first')).toBeVisible();
  await expect(memberPage.getByRole('button', { name: /^Lift/ })).toHaveCount(0);
  await expect(memberPage.getByRole('columnheader', { name: 'Action' })).toHaveCount(0);
  await checkA11y(memberPage);
  await snap('member', memberPage);
  await memberPage.goto('/app/settings');
  await expect(memberPage.getByRole('heading', { name: 'Bounce policy' })).toBeVisible();
  await expect(
    memberPage.getByText('Recorded only; the address keeps receiving mail'),
  ).toBeVisible();
  await expect(
    memberPage.getByText('Suppressed after 5 soft bounces within 14 days'),
  ).toBeVisible();
  await expect(memberPage.getByText('Only admins and owners change the policy.')).toBeVisible();
  await expect(memberPage.getByRole('form', { name: 'Bounce policy' })).toHaveCount(0);
  await expect(memberPage.getByRole('button', { name: 'Save policy' })).toHaveCount(0);
  await checkA11y(memberPage);
  await snap('member-policy', memberPage);
  await memberContext.close();
});
