import { signLinkToken } from '../../domain/tracking/tokens.js';
import { expect, test } from './fixtures.js';
import { signUpInBrowser, uniqueEmail, verifiedDomain } from './journeys.js';

// Double opt-in in the dashboard (issue 26, item 2): the setting in project settings (refused
// until a domain can send the confirmation, then saved), contacts that wait for their
// confirmation shown with their state and filtered on it, the confirmation pages a subscriber
// sees, and the contact's page once confirmed.

test('turn double opt-in on, see who awaits confirmation, and a confirmation land', async ({
  page,
  request,
  stack,
  dns,
  checkA11y,
  snap,
}) => {
  const toasts = page.getByRole('region', { name: /Notifications/ });
  await signUpInBrowser(page, uniqueEmail('optin'));
  const created = await page.request.post('/users/@me/projects', { data: { name: 'Newsletter' } });
  expect(created.status(), await created.text()).toBe(201);
  const {
    id: projectId,
    secretKey,
    publicKey,
  } = (await created.json()) as {
    id: string;
    secretKey: string;
    publicKey: string;
  };
  const headers = { Authorization: `Bearer ${secretKey}` };

  // Off by default; turning it on without a verified domain is refused where it is asked.
  await page.goto('/app/settings#double-opt-in');
  const card = page.getByRole('form', { name: 'Double opt-in' });
  const enabled = card.getByLabel('Ask new subscribers to confirm by email');
  await expect(enabled).not.toBeChecked();
  await expect(card.getByLabel('Confirmation email')).toHaveValue('');
  await enabled.check();
  await card.getByRole('button', { name: 'Save double opt-in' }).click();
  await expect(card.getByRole('alert')).toHaveText(
    'The confirmation email needs a sender: verify a sending domain first Domains',
  );
  await expect(card.getByRole('link', { name: 'Domains' })).toHaveAttribute('href', '/app/domains');
  expect(
    ((await (await request.get('/double-opt-in', { headers })).json()) as { enabled: boolean })
      .enabled,
  ).toBe(false);
  await checkA11y();
  await snap('settings-refused');

  // With a verified domain and a template of the project's own, it saves.
  const domain = await verifiedDomain(request, headers, dns);
  const template = await request.post('/templates', {
    headers,
    data: {
      name: 'Please confirm',
      subject: 'Confirm your subscription to {{ projectName }}',
      body: '<p>Hi {{ firstName | default("there") }},</p><p><a href="{{ confirmUrl }}">Yes, subscribe me</a></p>',
      from: `hello@${domain}`,
      fromName: 'The Newsletter',
      type: 'TRANSACTIONAL',
    },
  });
  expect(template.status(), await template.text()).toBe(201);
  const templateId = ((await template.json()) as { id: string }).id;
  await page.reload();
  await expect(enabled).not.toBeChecked();
  await enabled.check();
  await card.getByLabel('Confirmation email').selectOption({ label: 'Please confirm' });
  await card.getByRole('button', { name: 'Save double opt-in' }).click();
  await expect(toasts.getByText('Double opt-in is on')).toBeVisible();
  await expect(card.getByRole('alert')).toHaveCount(0);
  expect(await (await request.get('/double-opt-in', { headers })).json()).toEqual({
    enabled: true,
    templateId,
    linkValidDays: 7,
  });
  await page.reload();
  await expect(enabled).toBeChecked();
  await expect(card.getByLabel('Confirmation email')).toHaveValue(templateId);
  await card.scrollIntoViewIfNeeded();
  await checkA11y();
  await snap('settings-on');

  // Two people sign up through the public form; the project adds one itself; one unsubscribed.
  const ada = uniqueEmail('ada');
  const grace = uniqueEmail('grace');
  const added = uniqueEmail('added');
  const gone = uniqueEmail('gone');
  for (const [email, firstName] of [
    [ada, 'Ada'],
    [grace, 'Grace'],
  ]) {
    const res = await request.post('/v1/subscribe', {
      headers: { Authorization: `Bearer ${publicKey}` },
      data: { email, data: { firstName } },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  for (const [email, subscribed] of [
    [added, true],
    [gone, false],
  ] as const) {
    const res = await request.post('/contacts', { headers, data: { email, subscribed } });
    expect(res.status(), await res.text()).toBe(201);
  }

  await page.goto('/app/contacts');
  const table = page.getByRole('table', { name: 'Contacts' });
  const row = (email: string) => table.getByRole('row').filter({ hasText: email });
  await expect(table.getByRole('row')).toHaveCount(5);
  await expect(row(ada).getByTestId('subscription-state')).toHaveText('Awaiting confirmation');
  await expect(row(grace).getByTestId('subscription-state')).toHaveText('Awaiting confirmation');
  await expect(row(added).getByTestId('subscription-state')).toHaveText('Subscribed');
  await expect(row(gone).getByTestId('subscription-state')).toHaveText('Unsubscribed');
  await checkA11y();
  await snap('contacts');

  const filter = page.getByLabel('Subscription');
  await filter.selectOption({ label: 'Awaiting confirmation' });
  await expect(page.getByText('2 matching')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(row(added)).toHaveCount(0);
  await checkA11y();
  await snap('contacts-awaiting');
  await filter.selectOption({ label: 'Unsubscribed' });
  await expect(page.getByText('1 matching')).toBeVisible();
  await expect(row(gone)).toBeVisible();
  await filter.selectOption({ label: 'Awaiting confirmation' });
  await expect(page.getByText('2 matching')).toBeVisible();

  // A contact's page says it waits, since when, and what that withholds.
  await table.getByRole('link', { name: ada }).click();
  await expect(page.getByRole('heading', { name: ada })).toBeVisible();
  const subscription = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Subscription', exact: true }) });
  await expect(subscription.getByTestId('subscription-state')).toHaveText('Awaiting confirmation');
  await expect(subscription.getByText(/gets no campaign or workflow email/)).toBeVisible();
  await expect(
    subscription.getByRole('button', { name: 'Subscribe without confirmation' }),
  ).toBeVisible();
  await checkA11y();
  await snap('contact-awaiting');
  const contactUrl = page.url();

  // Ada's confirmation email, and the pages behind its link.
  const mail = await stack.smtp.waitFor(
    (m) => m.to.includes(ada) && m.parsed.subject === 'Confirm your subscription to Newsletter',
  );
  expect(mail.parsed.from?.address).toBe(`hello@${domain}`);
  const link = /href="([^"]+\/confirm-subscription\/[^"]+)"/.exec(mail.parsed.html ?? '')?.[1];
  expect(link, mail.parsed.html).toBeDefined();
  await page.goto(link as string);
  await expect(page.getByRole('heading', { name: 'Confirm your subscription' })).toBeVisible();
  await expect(
    page.getByText(`Confirm that ${ada} wants to receive email from Newsletter.`),
  ).toBeVisible();
  await checkA11y();
  await snap('confirm-page');
  await page.getByRole('button', { name: 'Confirm my subscription' }).click();
  await expect(page.getByRole('heading', { name: 'Subscription confirmed' })).toBeVisible();
  await checkA11y();
  await snap('confirmed-page');
  // The back button and a second click: nothing more happens, and the page says so.
  await page.goto(link as string);
  await expect(page.getByRole('heading', { name: 'Already confirmed' })).toBeVisible();

  // An expired link (its 7 days over) says so and offers a new one.
  const graceId = (
    (await (
      await request.post('/contacts/lookup', { headers, data: { emails: [grace] } })
    ).json()) as { found: { id: string }[] }
  ).found[0]?.id as string;
  const expired = `/confirm-subscription/${signLinkToken(
    { k: 'd', c: graceId, p: projectId, x: Math.floor(Date.now() / 1000) - 1 },
    stack.env.ENCRYPTION_KEY as string,
  )}`;
  const expiredPage = await page.goto(expired);
  expect(expiredPage?.status()).toBe(410);
  await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
  await checkA11y();
  await snap('expired-page');
  await page.getByRole('button', { name: 'Send me a new link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await stack.smtp.waitFor(
    () =>
      stack.smtp.messages.filter(
        (m) => m.to.includes(grace) && /confirm-subscription/.test(m.parsed.html ?? ''),
      ).length === 2,
  );

  // Back in the dashboard: Ada is subscribed, confirmed by email; Grace still waits.
  await page.goto(contactUrl);
  await expect(subscription.getByTestId('subscription-state')).toHaveText('Subscribed');
  await expect(subscription.getByText(/confirmed by email on/)).toBeVisible();
  await expect(subscription.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
  await checkA11y();
  await snap('contact-confirmed');
  await page.goto('/app/contacts');
  await filter.selectOption({ label: 'Awaiting confirmation' });
  await expect(page.getByText('1 matching')).toBeVisible();
  await expect(row(grace)).toBeVisible();
  await expect(row(ada)).toHaveCount(0);
});
