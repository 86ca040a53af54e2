import type { APIRequestContext, Locator } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { projectWithKey, signUpInBrowser, uniqueEmail, verifiedDomain } from './journeys.js';

async function addContacts(
  request: APIRequestContext,
  headers: Record<string, string>,
  plans: string[],
): Promise<string[]> {
  const emails: string[] = [];
  for (const plan of plans) {
    const email = uniqueEmail(plan);
    const res = await request.post('/contacts', { headers, data: { email, data: { plan } } });
    expect(res.status(), await res.text()).toBe(201);
    emails.push(email);
  }
  return emails;
}

/** Sets a condition row's field, operator and value through its own controls. */
async function fillCondition(
  row: Locator,
  { field, operator }: { field: string; operator: string },
): Promise<void> {
  await row.getByLabel('Field').selectOption({ label: field });
  await row.getByLabel('Operator').selectOption({ label: operator });
}

test('build a segment in the browser with a live count, round-trip its JSON, keep a static list', async ({
  page,
  request,
  dns,
  checkA11y,
  snap,
}) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  await signUpInBrowser(page, uniqueEmail('segments'));
  const headers = await projectWithKey(page, 'Segments project');
  await addContacts(request, headers, ['pro', 'pro', 'pro', 'free', 'free', 'team']);

  await page.goto('/app/segments');
  await expect(page.getByText('No segments yet')).toBeVisible();
  await checkA11y();
  await snap('empty');

  // "plan equals pro AND signed up within 7 days", built with the mouse and keyboard.
  await page.getByRole('button', { name: 'New segment' }).click();
  await expect(page.getByRole('heading', { name: 'New segment' })).toBeVisible();
  await page.getByLabel('Name').fill('Recent pro');
  const first = page.getByRole('group', { name: 'Condition 1' });
  await fillCondition(first, { field: 'plan', operator: 'equals' });
  await first.getByLabel('Value').fill('pro');
  await page.getByRole('button', { name: '+ Condition' }).first().click();
  const second = page.getByRole('group', { name: 'Condition 2' });
  await fillCondition(second, { field: 'Signed up (created)', operator: 'is within the last' });
  await second.getByLabel('Amount').fill('7');
  await second.getByLabel('Unit').selectOption('days');
  const count = page.getByTestId('preview-count');
  await expect(count).toHaveText('3');
  await expect(page.getByText('contacts', { exact: true })).toBeVisible();
  await checkA11y();
  await snap('builder');

  await page.getByRole('button', { name: 'Create segment' }).click();
  await expect(page.getByRole('heading', { name: 'Recent pro' })).toBeVisible();
  await expect(page.getByText('All changes saved')).toBeVisible();
  const segmentId = /\/segments\/([0-9a-f-]{36})$/.exec(page.url())?.[1] as string;
  const members = await request.get(`/segments/${segmentId}/contacts`, { headers });
  const listed = (await members.json()) as { total: number; data: { data: { plan: string } }[] };
  expect(listed.total).toBe(3);
  await expect(count).toHaveText(String(listed.total));
  await expect(page.getByTestId('members-total')).toHaveText('3 in all');

  // The JSON view holds the same filter; a change there shows in the builder.
  await page.getByRole('tab', { name: 'JSON' }).click();
  const json = page.getByLabel('Filter as JSON');
  const text = await json.inputValue();
  expect(JSON.parse(text)).toEqual({
    operator: 'AND',
    conditions: [
      { field: 'data.plan', operator: 'equals', value: 'pro' },
      { field: 'createdAt', operator: 'within', value: 7, unit: 'days' },
    ],
  });
  await json.fill(text.replace('"pro"', '"free"'));
  await expect(count).toHaveText('2');
  await page.getByRole('tab', { name: 'Builder' }).click();
  await expect(first.getByLabel('Value')).toHaveValue('free');

  // Invalid JSON keeps the JSON view open with the reason.
  await page.getByRole('tab', { name: 'JSON' }).click();
  await json.fill('{"operator": "AND", "conditions": [');
  await page.getByRole('tab', { name: 'Builder' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not valid JSON' })).toBeVisible();
  await expect(json).toBeVisible();

  // A 422 from the API lands on the condition its path names.
  await json.fill(text.replace('"pro"', '"free"').replace('"value": 7', '"value": -1'));
  await page.getByRole('tab', { name: 'Builder' }).click();
  await expect(second).toContainText(/value/i);
  await expect(second.getByLabel('Amount')).toHaveAttribute('aria-invalid', 'true');
  await expect(first.getByLabel('Value')).not.toHaveAttribute('aria-invalid', 'true');
  await snap('condition-error');
  await second.getByLabel('Amount').fill('7');
  await expect(second.getByLabel('Amount')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(count).toHaveText('2');

  // Leaving with unsaved changes asks first.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Segments' })
    .click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await checkA11y();
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(leave).toBeHidden();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('All changes saved')).toBeVisible();
  await expect(page.getByTestId('members-total')).toHaveText('2 in all');
  await checkA11y();
  await snap('saved');

  // A static list: members added by email (an unknown one reported), then removed.
  const [vip] = await addContacts(request, headers, ['vip']);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Segments' })
    .click();
  await expect(page.getByRole('link', { name: 'Recent pro' })).toBeVisible();
  await checkA11y();
  await snap('list');
  await page.getByRole('button', { name: 'New segment' }).click();
  await page.getByLabel('Name').fill('VIP list');
  await page.getByLabel('Type').selectOption('STATIC');
  await expect(page.getByRole('group', { name: 'Filter' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Create segment' }).click();
  await expect(page.getByRole('heading', { name: 'VIP list' })).toBeVisible();
  await page.getByLabel('Add members by email').fill(`${vip}, nobody-${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Add members' }).click();
  await expect(page.getByText(/^1 added; not found: nobody-/)).toBeVisible();
  await expect(page.getByTestId('members-total')).toHaveText('1 in all');
  await checkA11y();
  await snap('static');
  await page.getByRole('button', { name: `Remove ${vip}` }).click();
  await expect(page.getByTestId('members-total')).toHaveText('0 in all');

  // A segment a scheduled campaign sends to cannot be deleted: the dialog names the campaign.
  const domain = await verifiedDomain(request, headers, dns);
  const campaign = await request.post('/campaigns', {
    headers,
    data: {
      name: 'Spring sale',
      subject: 'Spring',
      body: '<p>Sale</p>',
      from: `news@${domain}`,
      audienceType: 'SEGMENT',
      segmentId,
    },
  });
  expect(campaign.status(), await campaign.text()).toBe(201);
  const campaignId = ((await campaign.json()) as { data: { id: string } }).data.id;
  const scheduled = await request.post(`/campaigns/${campaignId}/send`, {
    headers,
    data: { scheduledFor: new Date(Date.now() + 86_400_000).toISOString() },
  });
  expect(scheduled.status(), await scheduled.text()).toBeLessThan(300);
  await page.goto(`/app/segments/${segmentId}`);
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Recent pro?' });
  await confirm.getByRole('button', { name: 'Delete segment' }).click();
  await expect(confirm.getByRole('alert')).toContainText('Spring sale');
  await snap('delete-refused');
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  // The static one goes.
  await page.goto('/app/segments');
  await page.getByRole('link', { name: 'VIP list' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete VIP list?' })
    .getByRole('button', { name: 'Delete segment' })
    .click();
  await expect(page.getByRole('heading', { name: 'Segments' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'VIP list' })).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});
