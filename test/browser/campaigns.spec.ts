import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { projectWithKey, signUpInBrowser, uniqueEmail, verifiedDomain } from './journeys.js';

/** `YYYY-MM-DDTHH:MM:SS` in the browser's own zone, for a datetime-local input. */
async function localTime(page: Page, at: Date): Promise<string> {
  return page.evaluate(`(() => {
    const d = new Date(${at.getTime()});
    const p = (n) => String(n).padStart(2, '0');
    return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + 'T' +
      p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds());
  })()`);
}

/** Every status the page's badge shows from now on, in order, without repeats. */
async function recordStatuses(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(`(() => {
    window.__statuses = [];
    setInterval(() => {
      const text = document.querySelector('[data-testid="campaign-status"]')?.textContent;
      if (text && window.__statuses.at(-1) !== text) window.__statuses.push(text);
    }, 50);
  })()`);
  return async () => (await page.evaluate('window.__statuses')) as string[];
}

test('compose a campaign to a segment from a template, schedule it, watch it send; send a copy now', async ({
  page,
  request,
  stack,
  dns,
  checkA11y,
  snap,
}) => {
  test.setTimeout(180_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  await signUpInBrowser(page, uniqueEmail('campaigns'));
  const headers = await projectWithKey(page, 'Campaigns project');
  const domain = await verifiedDomain(request, headers, dns);
  const people = [
    { plan: 'pro', subscribed: true },
    { plan: 'pro', subscribed: true },
    { plan: 'pro', subscribed: true },
    { plan: 'pro', subscribed: false },
    { plan: 'free', subscribed: true },
  ].map((p) => ({ ...p, email: uniqueEmail(p.plan) }));
  for (const p of people) {
    const res = await request.post('/contacts', {
      headers,
      data: { email: p.email, subscribed: p.subscribed, data: { plan: p.plan } },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  const reachable = people.filter((p) => p.plan === 'pro' && p.subscribed).map((p) => p.email);
  const segment = await request.post('/segments', {
    headers,
    data: {
      name: 'Pro plan',
      filters: {
        operator: 'AND',
        conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }],
      },
    },
  });
  expect(segment.status()).toBe(201);
  const tag = Date.now().toString(36);
  const template = await request.post('/templates', {
    headers,
    data: {
      name: 'Spring template',
      subject: `Spring news ${tag}`,
      body: '<h1>Hello {{ email }}</h1><p>Spring is here.</p>',
      from: `spring@${domain}`,
      type: 'MARKETING',
    },
  });
  expect(template.status(), await template.text()).toBe(201);

  await page.goto('/app/campaigns');
  await expect(page.getByText('No campaigns yet')).toBeVisible();
  await checkA11y();

  // Compose: the template fills the content, the segment is the audience.
  await page.getByRole('button', { name: 'New campaign' }).click();
  await expect(page.getByRole('heading', { name: 'New campaign' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('Spring news');
  await page.getByLabel('Start from a template').selectOption({ label: 'Spring template' });
  await expect(page.getByLabel('Subject')).toHaveValue(`Spring news ${tag}`);
  await expect(page.getByLabel('From (before @)')).toHaveValue('spring');
  await expect(page.getByLabel('Sending domain')).toHaveValue(domain);
  const preview = page.frameLocator('iframe[title="Email preview"]');
  await expect(preview.getByRole('heading', { name: 'Hello jane.doe@example.com' })).toBeVisible();
  await page.getByLabel('A segment').check();
  await page.getByLabel('Segment', { exact: true }).selectOption({ label: 'Pro plan (4)' });
  await expect(page.getByTestId('reachable-count')).toHaveText('3');
  await expect(
    page.getByText('4 match the audience; 1 unsubscribed or suppressed is skipped.'),
  ).toBeVisible();
  await checkA11y();
  await snap('composer');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page.getByRole('heading', { name: 'Spring news' })).toBeVisible();
  await expect(page.getByText('All changes saved')).toBeVisible();
  const campaignId = /\/campaigns\/([0-9a-f-]{36})$/.exec(page.url())?.[1] as string;

  // A test send: one email, [TEST] before the subject.
  const tester = uniqueEmail('tester');
  await page.getByRole('button', { name: 'Send a test' }).click();
  await page.getByRole('dialog', { name: 'Send a test' }).getByLabel('Send to').fill(tester);
  await page.getByRole('button', { name: 'Send test', exact: true }).click();
  await expect(page.getByText(`Test sent to ${tester}`, { exact: true })).toBeVisible();
  await stack.smtp.waitFor(
    (m) => m.to.includes(tester) && m.parsed.subject === `[TEST] Spring news ${tag}`,
  );

  // Schedule a minute ahead in the browser's zone (room for the dialog and its axe check on a
  // loaded machine); the dialog shows it in UTC too.
  const at = new Date(Math.ceil((Date.now() + 60_000) / 1000) * 1000);
  await page.getByRole('button', { name: 'Schedule' }).click();
  const schedule = page.getByRole('dialog', { name: 'Schedule the send' });
  await schedule.getByLabel(/^Send at/).fill(await localTime(page, at));
  await expect(schedule.getByTestId('schedule-utc')).toHaveText(
    `${at.toISOString().replace('.000Z', 'Z')} UTC`,
  );
  await checkA11y();
  await schedule.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByRole('heading', { name: 'Spring news: stats' })).toBeVisible();
  await expect(page.getByTestId('campaign-status')).toHaveText('scheduled');
  const statuses = await recordStatuses(page);
  const stored = await request.get(`/campaigns/${campaignId}`, { headers });
  expect(((await stored.json()) as { data: { scheduledAt: string } }).data.scheduledAt).toBe(
    at.toISOString(),
  );
  await snap('scheduled');
  await expect(page.getByTestId('campaign-status')).toHaveText('sent', { timeout: 120_000 });
  // The recorder samples every 50 ms: wait for it to have seen what the page now shows.
  await expect.poll(async () => (await statuses()).at(-1)).toBe('sent');
  const seen = await statuses();
  expect(seen[0]).toBe('scheduled');
  expect(['scheduled', 'sending', 'sent']).toEqual(expect.arrayContaining(seen));
  await expect(page.getByTestId('stat-skipped')).toHaveText('1');
  const received = () =>
    stack.smtp.messages
      .filter((m) => m.parsed.subject === `Spring news ${tag}`)
      .flatMap((m) => m.to)
      .sort();
  await expect.poll(received).toEqual([...reachable].sort());
  await checkA11y();
  await snap('sent');

  // Once sent, the composer is read-only.
  await page.getByRole('link', { name: 'Open the campaign' }).click();
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);

  // The list shows it with its figures; a copy is sent now after a confirmation naming the count.
  await page.goto('/app/campaigns');
  await expect(page.getByRole('link', { name: 'Spring news', exact: true })).toBeVisible();
  await checkA11y();
  await snap('list');
  await page.getByRole('button', { name: 'Duplicate Spring news' }).click();
  await expect(page.getByRole('heading', { name: 'Spring news (copy)' })).toBeVisible();
  await expect(page.getByTestId('reachable-count')).toHaveText('3');
  await page.getByRole('button', { name: 'Send now' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send to 3 contacts now?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByRole('heading', { name: 'Spring news (copy): stats' })).toBeVisible();
  await expect(page.getByTestId('campaign-status')).toHaveText('sent', { timeout: 60_000 });
  await expect.poll(() => received().length).toBe(reachable.length * 2);

  // A scheduled copy is cancelled before its time: nothing more is sent.
  await page.goto('/app/campaigns');
  await expect(page.getByRole('cell', { name: 'Pro plan (4)' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Duplicate Spring news (copy)' }).click();
  await expect(page.getByRole('heading', { name: 'Spring news (copy) (copy)' })).toBeVisible();
  await page.getByRole('button', { name: 'Schedule' }).click();
  const later = page.getByRole('dialog', { name: 'Schedule the send' });
  await later.getByLabel(/^Send at/).fill(await localTime(page, new Date(Date.now() + 3_600_000)));
  await later.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByTestId('campaign-status')).toHaveText('scheduled');
  await page.getByRole('link', { name: 'Open the campaign' }).click();
  await page.getByRole('button', { name: 'Cancel send' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this send?' })
    .getByRole('button', { name: 'Cancel send' })
    .click();
  await expect(page.getByTestId('campaign-status')).toHaveText('cancelled');
  expect(received()).toHaveLength(reachable.length * 2);
  expect(pageErrors).toEqual([]);
});
