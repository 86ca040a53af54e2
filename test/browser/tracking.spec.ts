import { expect, test } from './fixtures.js';
import {
  logInInBrowser,
  PASSWORD,
  projectWithKey,
  signUpInBrowser,
  uniqueEmail,
  verifiedDomain,
} from './journeys.js';

// Tracking off (issue 26): the project's card in Settings, a template's and a campaign's own
// setting in their editors, and "Not tracked" in the campaign's stats.

const LINK = 'https://example.com/spring';

test('turn tracking off for the project, a template and a campaign; its stats say "Not tracked"', async ({
  page,
  browser,
  baseURL,
  request,
  stack,
  dns,
  checkA11y,
  snap,
}) => {
  test.setTimeout(180_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  await signUpInBrowser(page, uniqueEmail('tracking'));
  const headers = await projectWithKey(page, 'Tracking project');
  const domain = await verifiedDomain(request, headers, dns);
  const people = [uniqueEmail('reader'), uniqueEmail('reader')];
  for (const email of people) {
    const res = await request.post('/contacts', { headers, data: { email, subscribed: true } });
    expect(res.status(), await res.text()).toBe(201);
  }
  const tag = Date.now().toString(36);
  const created = await request.post('/templates', {
    headers,
    data: {
      name: 'Spring template',
      subject: `Spring ${tag}`,
      body: `<h1>Spring</h1><p><a href="${LINK}">See what is new</a></p>`,
      from: `spring@${domain}`,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const templateId = ((await created.json()) as { id: string }).id;
  const projectTracking = async () => {
    const res = await page.request.get('/users/@me/projects');
    const [project] = (await res.json()) as { settings: { tracking: unknown } }[];
    return project?.settings.tracking;
  };

  // The project: clicks off, opens still on.
  await page.goto('/app/settings');
  const card = page.getByRole('form', { name: 'Tracking' });
  await expect(card.getByLabel('Track opens')).toBeChecked();
  await expect(card.getByLabel('Track clicks')).toBeChecked();
  await expect(card.getByRole('button', { name: 'Save tracking' })).toBeDisabled();
  await card.getByLabel('Track clicks').uncheck();
  await card.getByRole('button', { name: 'Save tracking' }).click();
  await expect(page.getByText('Tracking saved', { exact: true })).toBeVisible();
  expect(await projectTracking()).toEqual({ opens: true, clicks: false });
  await expect(card.getByLabel('Track clicks')).not.toBeChecked();
  await checkA11y();
  await snap('settings');

  // The template: its defaults show the project's setting; opens turned off for it alone.
  await page.goto(`/app/templates/${templateId}`);
  const opens = page.getByLabel('Open tracking');
  const clicks = page.getByLabel('Click tracking');
  await expect(opens.locator('option:checked')).toHaveText('Default (tracked)');
  await expect(clicks.locator('option:checked')).toHaveText('Default (not tracked)');
  await opens.selectOption({ label: 'Not tracked' });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Template saved', { exact: true })).toBeVisible();
  const template = await request.get(`/templates/${templateId}`, { headers });
  expect(((await template.json()) as { tracking: unknown }).tracking).toEqual({
    opens: false,
    clicks: null,
  });
  await checkA11y();
  await snap('template');

  // The campaign: made from the template, its defaults are the template's and the project's;
  // it tracks clicks itself and leaves opens off.
  await page.goto('/app/campaigns/new');
  await page.getByLabel('Name', { exact: true }).fill('Spring news');
  await page.getByLabel('Start from a template').selectOption({ label: 'Spring template' });
  await expect(page.getByLabel('Subject')).toHaveValue(`Spring ${tag}`);
  await expect(opens.locator('option:checked')).toHaveText('Default (not tracked)');
  await expect(clicks.locator('option:checked')).toHaveText('Default (not tracked)');
  await clicks.selectOption({ label: 'Tracked' });
  await checkA11y();
  await snap('campaign');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page.getByRole('heading', { name: 'Spring news' })).toBeVisible();
  await expect(page.getByText('All changes saved')).toBeVisible();
  await expect(clicks.locator('option:checked')).toHaveText('Tracked');
  const campaignId = /\/campaigns\/([0-9a-f-]{36})$/.exec(page.url())?.[1] as string;
  const campaign = await request.get(`/campaigns/${campaignId}`, { headers });
  expect(((await campaign.json()) as { data: { tracking: unknown } }).data.tracking).toEqual({
    opens: null,
    clicks: true,
  });

  await page.getByRole('button', { name: 'Send now' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send to 2 contacts now?' });
  await confirm.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByRole('heading', { name: 'Spring news: stats' })).toBeVisible();
  await expect(page.getByTestId('campaign-status')).toHaveText('sent', { timeout: 60_000 });

  // What the readers got: no pixel, links through the click redirect.
  const received = await Promise.all(
    people.map((to) =>
      stack.smtp.waitFor((m) => m.to.includes(to) && m.parsed.subject === `Spring ${tag}`),
    ),
  );
  for (const mail of received) {
    const html = mail.parsed.html ?? '';
    expect(html).not.toContain('/t/o/');
    expect(html).not.toContain(`href="${LINK}"`);
    expect(html).toContain('/t/c/');
  }

  // Opens: "Not tracked", never 0 %; clicks counted.
  await expect(page.getByTestId('stat-opened')).toHaveText('Not tracked');
  await expect(page.getByTestId('stat-clicked')).toHaveText('0');
  await expect(page.getByTestId('stat-rates')).toHaveText(
    'Open rate not tracked · click rate 0.0% · bounce rate 0.0% (of sent)',
  );
  await expect(page.getByRole('note')).toHaveText(/^Opens were not tracked/);
  await checkA11y();
  await snap('stats');

  await page.goto('/app/campaigns');
  await expect(page.getByRole('link', { name: '2 · not tracked · 0.0%' })).toBeVisible();
  expect(pageErrors).toEqual([]);

  // A member sees the project's setting and cannot change it.
  const member = uniqueEmail('member');
  expect(
    (await request.post('/auth/signup', { data: { email: member, password: PASSWORD } })).status(),
  ).toBe(201);
  const [project] = (await (await page.request.get('/users/@me/projects')).json()) as {
    id: string;
  }[];
  const added = await page.request.post(`/projects/${project?.id}/members`, {
    data: { email: member },
  });
  expect(added.status(), await added.text()).toBe(201);
  const memberContext = await browser.newContext({ baseURL });
  const memberPage = await memberContext.newPage();
  await logInInBrowser(memberPage, member);
  await memberPage.goto('/app/settings');
  const summary = memberPage.locator('#tracking');
  await expect(summary.getByRole('heading', { name: 'Tracking' })).toBeVisible();
  await expect(summary.getByText('Only admins and owners change it.')).toBeVisible();
  await expect(summary.getByRole('button', { name: 'Save tracking' })).toHaveCount(0);
  await expect(summary.locator('dd')).toHaveText(['Tracked', 'Not tracked']);
  await checkA11y(memberPage);
  await snap('settings-member', memberPage);
  await memberContext.close();
});
