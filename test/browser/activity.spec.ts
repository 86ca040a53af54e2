import { expect, test } from './fixtures.js';
import { projectWithKey, signUpInBrowser, uniqueEmail, verifiedDomain } from './journeys.js';

const BULK = 30;
const HOSTILE = `<h1>Hostile welcome</h1><script>alert('script')</script>
<img src="x" onerror="alert('onerror')" alt="broken">
<a href="javascript:alert('link')">click me</a>`;

test('the activity feed filters and scrolls, a message shows its sandboxed body, analytics chart and tables', async ({
  page,
  request,
  stack,
  dns,
  checkA11y,
  snap,
}) => {
  test.setTimeout(180_000);
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

  await signUpInBrowser(page, uniqueEmail('activity'));
  const headers = await projectWithKey(page);
  const domain = await verifiedDomain(request, headers, dns);

  // Before any mail: the empty states.
  await page.goto('/app/activity');
  await expect(page.getByText('No activity yet')).toBeVisible();
  await checkA11y();
  await snap('feed-empty');
  await page.goto('/app/analytics');
  await expect(page.getByText('No mail in this period')).toBeVisible();
  await expect(page.getByText('No tracked event in this period.')).toBeVisible();
  await checkA11y();
  await snap('analytics-empty');
  const tag = Date.now().toString(36);
  const reader = `reader-${tag}@example.com`;

  // One email with hostile HTML, then one send to more recipients than a page of the feed holds.
  const hostile = await request.post('/v1/send', {
    headers,
    data: { to: reader, subject: `Welcome ${tag}`, body: HOSTILE, from: `hello@${domain}` },
  });
  expect(hostile.status(), await hostile.text()).toBe(200);
  const bulk = await request.post('/v1/send', {
    headers,
    data: {
      to: Array.from({ length: BULK }, (_, i) => `bulk${i}-${tag}@example.com`),
      subject: `Bulk ${tag}`,
      body: '<p>Bulk mail</p>',
      from: `news@${domain}`,
    },
  });
  expect(bulk.status(), await bulk.text()).toBe(200);
  const mail = await stack.smtp.waitFor((m) => m.parsed.subject === `Welcome ${tag}`);
  await stack.smtp.waitFor(
    () => stack.smtp.messages.filter((m) => m.parsed.subject === `Bulk ${tag}`).length === BULK,
  );
  // SENT is recorded once the SMTP server has answered: wait for all of it before the open.
  await expect
    .poll(async () => {
      const sent = await request.get('/activity?type=sent&limit=1', { headers });
      return ((await sent.json()) as { total: number }).total;
    })
    .toBe(BULK + 1);
  const pixel = /src="([^"]*\/t\/o\/[^"]+)"/.exec(mail.parsed.html ?? '')?.[1];
  expect((await request.get(pixel as string)).status()).toBe(200);
  for (const event of ['purchase', 'purchase', 'signup']) {
    const tracked = await request.post('/v1/track', { headers, data: { email: reader, event } });
    expect(tracked.status(), await tracked.text()).toBe(200);
  }
  const total = BULK + 2; // the sends and the open

  // The feed: a first page, then the rest as the list scrolls to its end.
  await page.goto('/app/activity');
  await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible();
  await expect(page.getByText(`${total} in all, newest first`)).toBeVisible();
  const count = page.getByTestId('activity-count');
  await expect(count).toHaveText(`Showing 25 of ${total}`);
  const loadMore = page.getByRole('button', { name: 'Load more' });
  await expect(loadMore).toBeVisible();
  await checkA11y();
  await page.mouse.wheel(0, 10_000);
  await expect(count).toHaveText(`Showing ${total} of ${total}`);
  await expect(loadMore).toBeHidden();
  const feed = page.getByRole('list', { name: 'Activity' });
  // At the end of the list, the rows drawn are the oldest sends. Which of them came first is the
  // relay's order (the welcome's SENT may be among the newest), so look for any bulk row there.
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  await expect(feed.getByRole('link', { name: `Bulk ${tag}` }).last()).toBeInViewport();
  // Virtualised: back at the top, only the rows near the viewport are in the page.
  await page.evaluate('window.scrollTo(0, 0)');
  await expect.poll(() => feed.getByRole('listitem').count()).toBeLessThan(total);
  await expect(feed.getByRole('listitem').first()).toContainText('Opened');
  await snap('feed');

  // Filters, kept in the URL: by type, then by contact email.
  await page.getByLabel('Type').selectOption('opened');
  await expect(page).toHaveURL(/type=opened/);
  await expect(page.getByText('1 matching, newest first')).toBeVisible();
  await expect(count).toHaveText('Showing 1 of 1');
  await expect(feed.getByRole('listitem')).toHaveCount(1);
  await expect(feed.getByRole('listitem')).toContainText('Opened');
  await page.getByLabel('Type').selectOption('');
  await page.getByLabel('Contact', { exact: true }).fill(reader);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/contact=/);
  await expect(page.getByText('2 matching, newest first')).toBeVisible();
  await expect(feed.getByRole('listitem')).toHaveCount(2);
  await checkA11y();
  await snap('filtered');
  await page.reload();
  await expect(page.getByLabel('Contact', { exact: true })).toHaveValue(reader);
  await expect(feed.getByRole('listitem')).toHaveCount(2);

  // The message: details, timeline, and the hostile body inside a sandbox that runs nothing.
  await feed
    .getByRole('link', { name: `Welcome ${tag}` })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: `Welcome ${tag}` })).toBeVisible();
  await expect(page.getByText(`To ${reader}`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'View contact' })).toHaveAttribute(
    'href',
    /\/app\/contacts\/[0-9a-f-]{36}$/,
  );
  await expect(page.getByText('First opened')).toBeVisible();
  const events = page.getByRole('list', { name: 'Events of this email' });
  await expect(events.getByRole('listitem')).toHaveCount(2);
  await expect(events).toContainText('email.sent');
  await expect(events).toContainText('email.opened');
  const frame = page.getByTitle('Email body');
  await expect(frame).toHaveAttribute('sandbox', '');
  const body = page.frameLocator('iframe[title="Email body"]');
  await expect(body.getByRole('heading', { name: 'Hostile welcome' })).toBeVisible();
  await body.getByRole('link', { name: 'click me' }).click();
  await expect(body.getByRole('heading', { name: 'Hostile welcome' })).toBeVisible();
  expect(dialogs).toEqual([]);
  // Chromium reports each script the sandbox refused; nothing else failed, no script error.
  const refused =
    /sandbox|Blocked script execution|Content Security Policy|Failed to load resource/i;
  expect(consoleErrors.filter((e) => !refused.test(e))).toEqual([]);
  await expect
    .poll(() => consoleErrors.some((e) => /sandbox|Content Security Policy/i.test(e)))
    .toBe(true);
  expect(pageErrors).toEqual([]);
  await checkA11y();
  await snap('message');

  // The contact's page lists the emails sent to it, each linking back to its message page, and
  // leads to the feed filtered to the contact.
  await page.getByRole('link', { name: 'View contact' }).click();
  await expect(page.getByRole('heading', { name: reader })).toBeVisible();
  const sentToReader = page.getByRole('link', { name: `Welcome ${tag}` });
  await expect(sentToReader).toHaveCount(1);
  await expect(sentToReader).toHaveAttribute('href', /\/app\/activity\/messages\/[0-9a-f-]{36}$/);
  await checkA11y();
  await snap('contact-emails');
  await page.getByRole('link', { name: 'All activity of this contact' }).click();
  await expect(feed.getByRole('listitem')).toHaveCount(2);
  await page.goBack();
  await sentToReader.click();
  await expect(page.getByRole('heading', { name: `Welcome ${tag}` })).toBeVisible();

  // Analytics: the chart of the window, then hour buckets; the tracked events in their table.
  await page.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { name: 'Mail over time' })).toBeVisible();
  const chart = page.locator('figure svg.recharts-surface');
  await expect(chart).toBeVisible();
  await expect(chart.locator('title')).toHaveText('Mail per day');
  await expect(page.locator('figcaption')).toContainText(`${BULK + 1} sent`);
  await expect(page.locator('figcaption')).toContainText('1 opened');
  const topEvents = page.getByRole('table', { name: 'Top events' });
  await expect(topEvents.getByRole('row', { name: 'purchase 2' })).toBeVisible();
  await expect(topEvents.getByRole('row', { name: 'signup 1' })).toBeVisible();
  await expect(page.getByText('No campaign has sent mail yet.')).toBeVisible();
  await checkA11y();
  await snap('analytics');
  await page.getByText('Hour', { exact: true }).click();
  await expect(page).toHaveURL(/granularity=hour/);
  await expect(chart.locator('title')).toHaveText('Mail per hour');
  await expect(page.locator('figcaption')).toContainText(`${BULK + 1} sent`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(chart).toBeVisible();
  await checkA11y();
  await snap('analytics-dark');
  await page.getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByText(`${total} in all, newest first`)).toBeVisible();
  await checkA11y();
  await snap('feed-dark');
  expect(pageErrors).toEqual([]);
});
