import { request as apiRequest, type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import {
  createProjectInBrowser,
  logInInBrowser,
  PASSWORD,
  uniqueEmail,
  verificationLink,
} from './journeys.js';

interface ProjectRow {
  id: string;
  name: string;
  publicKey: string;
}

/** The user's projects as the API lists them (the page's session cookie). */
async function projectsOf(page: Page): Promise<ProjectRow[]> {
  const res = await page.request.get('/users/@me/projects');
  expect(res.status()).toBe(200);
  return (await res.json()) as ProjectRow[];
}

async function contactTotal(page: Page, projectId: string): Promise<number> {
  const res = await page.request.get('/contacts?limit=1', {
    headers: { 'X-Project-Id': projectId },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { total: number }).total;
}

/** A contact made with the project's public key, the way a website's tracking snippet makes one. */
async function trackContact(request: APIRequestContext, publicKey: string): Promise<void> {
  const res = await request.post('/v1/track', {
    headers: { Authorization: `Bearer ${publicKey}` },
    data: { email: uniqueEmail('reader'), event: 'signed_up' },
  });
  expect(res.status()).toBe(200);
}

/** Opens the typed confirmation of `action` for `name`; the button waits for the typed name. */
async function confirmTyped(page: Page, action: 'Reset' | 'Delete', name: string): Promise<void> {
  await page.getByRole('button', { name: `${action} ${name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `${action} ${name}?` });
  const confirm = dialog.getByRole('button', { name: `${action} project` });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type "${name}" to confirm`).fill(name.slice(0, -1));
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type "${name}" to confirm`).fill(name);
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(dialog).toBeHidden();
}

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** Another device logged in as the user: its own cookie jar and user agent. */
async function deviceSession(
  baseURL: string | undefined,
  userAgent: string,
  email: string,
): Promise<APIRequestContext> {
  const device = await apiRequest.newContext({ baseURL, userAgent });
  const login = await device.post('/auth/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  return device;
}

test('the account page: profile, sessions, resend verification, reset and delete projects by typed name', async ({
  page,
  browser,
  baseURL,
  request,
  stack,
  checkA11y,
  snap,
}) => {
  const email = uniqueEmail('account');
  const signup = await request.post('/auth/signup', { data: { email, password: PASSWORD } });
  expect(signup.status()).toBe(201);
  await verificationLink(stack, email);
  await logInInBrowser(page, email);
  await createProjectInBrowser(page, 'Alpha');

  // A second project from the account page's own link; it becomes the current one.
  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'New project' }).click();
  await expect(page.getByRole('heading', { name: 'New project' })).toBeVisible();
  await page.getByLabel('Project name').fill('Beta');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  const created = await projectsOf(page);
  const alphaRow = created.find((p) => p.name === 'Alpha');
  const betaRow = created.find((p) => p.name === 'Beta');
  if (!alphaRow || !betaRow) throw new Error('Both projects should exist');
  await expect(page.getByLabel('Project', { exact: true })).toHaveValue(betaRow.id);

  // The user is logged in on a phone and a laptop too.
  const phone = await deviceSession(baseURL, PHONE, email);
  const laptop = await deviceSession(baseURL, LAPTOP, email);

  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page.getByText(email, { exact: true }).last()).toBeVisible();
  // Four sessions: this browser, the sign-up's, the phone and the laptop.
  const sessions = page.getByRole('list', { name: 'Active sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(4);
  const thisDevice = sessions.getByRole('listitem').filter({ hasText: 'this device' });
  await expect(thisDevice).toHaveCount(1);
  await expect(thisDevice).toContainText('Chrome on Linux');
  await expect(thisDevice.getByRole('button', { name: /^Log out/ })).toHaveCount(0);
  await expect(sessions.getByRole('listitem').filter({ hasText: 'Safari on iOS' })).toContainText(
    'Last seen',
  );
  await expect(page.getByText('Not verified yet', { exact: true })).toBeVisible();
  const list = page.getByRole('list', { name: 'Your projects' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').filter({ hasText: 'Beta' })).toContainText('current');
  await expect(list.getByRole('listitem').filter({ hasText: 'Alpha' })).not.toContainText(
    'current',
  );
  await checkA11y();
  await snap('account');

  // Log the laptop out from its row, then every other device at once.
  await sessions
    .getByRole('listitem')
    .filter({ hasText: 'Firefox on Windows' })
    .getByRole('button', { name: /^Log out/ })
    .click();
  await expect(page.getByText('That session is logged out', { exact: true })).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(3);
  expect((await laptop.get('/users/@me')).status()).toBe(401);
  expect((await phone.get('/users/@me')).status()).toBe(200);
  await page.getByRole('button', { name: 'Log out everywhere else' }).click();
  const everywhere = page.getByRole('dialog', { name: 'Log out everywhere else?' });
  await expect(everywhere).toContainText('the 2 other sessions');
  await checkA11y();
  await everywhere.getByRole('button', { name: 'Log out everywhere else' }).click();
  await expect(everywhere).toBeHidden();
  await expect(page.getByText('Logged out of 2 other sessions', { exact: true })).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  await expect(sessions.getByRole('listitem')).toContainText('this device');
  await expect(page.getByText('You are logged in on this device only.')).toBeVisible();
  expect((await phone.get('/users/@me')).status()).toBe(401);
  expect((await page.request.get('/users/@me')).status()).toBe(200);
  await snap('sessions-after-logout');
  await Promise.all([phone.dispose(), laptop.dispose()]);

  // The verification email again, and the password link (the API's way to change a password).
  const sentTo = () => stack.smtp.messages.filter((m) => m.to.includes(email));
  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await expect.poll(() => sentTo().length).toBe(2);
  expect(sentTo()[1]?.parsed.text).toMatch(/\/auth\/verify-email\?token=/);
  await page.getByRole('button', { name: 'Email me a password link' }).click();
  await expect.poll(() => sentTo().length).toBe(3);
  expect(sentTo()[2]?.parsed.text).toMatch(/\/auth\/reset-password\?token=/);

  // Reset Alpha: its contacts go, the project and its key stay.
  await trackContact(request, alphaRow.publicKey);
  await trackContact(request, alphaRow.publicKey);
  expect(await contactTotal(page, alphaRow.id)).toBe(2);
  await page.getByRole('button', { name: 'Reset Alpha', exact: true }).click();
  const resetDialog = page.getByRole('dialog', { name: 'Reset Alpha?' });
  await expect(resetDialog).toContainText('contacts, events, emails');
  await checkA11y();
  await snap('reset-dialog');
  await resetDialog.getByRole('button', { name: 'Cancel' }).click();
  await confirmTyped(page, 'Reset', 'Alpha');
  await expect(page.getByText('The data of Alpha was wiped', { exact: true })).toBeVisible();
  expect(await contactTotal(page, alphaRow.id)).toBe(0);
  expect((await projectsOf(page)).map((p) => p.name).sort()).toEqual(['Alpha', 'Beta']);
  await trackContact(request, alphaRow.publicKey);
  expect(await contactTotal(page, alphaRow.id)).toBe(1);

  // A member of Alpha sees it on their account page, without the owner's actions.
  const member = uniqueEmail('member');
  expect(
    (await request.post('/auth/signup', { data: { email: member, password: PASSWORD } })).status(),
  ).toBe(201);
  const added = await page.request.post(`/projects/${alphaRow.id}/members`, {
    data: { email: member, role: 'MEMBER' },
  });
  expect(added.status()).toBe(201);
  const memberContext = await browser.newContext({ baseURL });
  const memberPage = await memberContext.newPage();
  await logInInBrowser(memberPage, member);
  await memberPage.goto('/app/account');
  const memberItem = memberPage.getByRole('list', { name: 'Your projects' }).getByRole('listitem');
  await expect(memberItem).toHaveCount(1);
  await expect(memberItem).toContainText('Alpha');
  await expect(memberItem).toContainText('Only an owner can reset or delete it.');
  await expect(memberPage.getByRole('button', { name: /^(Reset|Delete) / })).toHaveCount(0);
  await checkA11y(memberPage);
  await snap('member', memberPage);
  await memberContext.close();

  // Delete Beta, the current project: the switcher moves to Alpha.
  await confirmTyped(page, 'Delete', 'Beta');
  await expect(page.getByText('Beta deleted', { exact: true })).toBeVisible();
  expect((await projectsOf(page)).map((p) => p.name)).toEqual(['Alpha']);
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByLabel('Project', { exact: true })).toHaveValue(alphaRow.id);
  await expect(page.getByRole('option', { name: 'Beta' })).toHaveCount(0);
  const gone = await page.request.get('/contacts', { headers: { 'X-Project-Id': betaRow.id } });
  expect(gone.status()).toBe(404);
  await checkA11y();
  await snap('after-delete');

  // Delete the last one: the dashboard goes to the new-project page.
  await confirmTyped(page, 'Delete', 'Alpha');
  await expect(page).toHaveURL(/\/app\/projects\/new$/);
  await expect(page.getByRole('heading', { name: 'New project' })).toBeVisible();
  expect(await projectsOf(page)).toEqual([]);
  await page.goto('/app/account');
  await expect(page).toHaveURL(/\/app\/projects\/new$/);
});
