import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { projectWithKey, signUpInBrowser, uniqueEmail, verifiedDomain } from './journeys.js';

type Box = { x: number; y: number; width: number; height: number };

/** Node boxes on the page, by label. */
async function nodeBoxes(page: Page): Promise<{ label: string; box: Box }[]> {
  return page.locator('.react-flow__node').evaluateAll((nodes) =>
    nodes.map((n) => {
      const { x, y, width, height } = n.getBoundingClientRect();
      return {
        label: n.firstElementChild?.getAttribute('aria-label') ?? n.id,
        box: { x, y, width, height },
      };
    }),
  );
}

/** Whether every node lies inside the canvas (the canvas fits the graph after each change). */
async function graphInView(page: Page): Promise<boolean> {
  const canvas = await page.getByRole('region', { name: 'Workflow graph' }).boundingBox();
  if (!canvas) return false;
  return (await nodeBoxes(page)).every(
    ({ box: b }) =>
      b.x >= canvas.x &&
      b.y >= canvas.y &&
      b.x + b.width <= canvas.x + canvas.width &&
      b.y + b.height <= canvas.y + canvas.height,
  );
}

/** Where a handle is once it has stopped moving (the canvas fits again 50 ms after a change). */
async function settledBox(page: Page, handle: Locator) {
  let last = '';
  for (;;) {
    const box = await handle.boundingBox();
    if (!box) throw new Error('an element is not on the canvas');
    const now = JSON.stringify(box);
    if (now === last) return box;
    last = now;
    await page.waitForTimeout(150);
  }
}

/** Pairs of nodes drawn over each other, by their labels. */
async function overlappingNodes(page: Page): Promise<string[]> {
  const boxes = await nodeBoxes(page);
  const meet = (a: Box, b: Box) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  return boxes.flatMap((a, i) =>
    boxes
      .slice(i + 1)
      .filter((b) => meet(a.box, b.box))
      .map((b) => `${a.label} / ${b.label}`),
  );
}

/**
 * Drags from one handle to another with the mouse, in small moves, as a person would, once the
 * whole graph is in view (before the fit, a handle may lie past the canvas's edge, where a held
 * connection pans the canvas). `hover` waits as a person's eye does: until the handle stops
 * moving and nothing covers it (a toast over the canvas), at the start and at the drop.
 */
async function drag(page: Page, from: Locator, to: Locator): Promise<void> {
  await expect.poll(() => graphInView(page)).toBe(true);
  await settledBox(page, from);
  const b = await settledBox(page, to);
  await from.hover();
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2 - 24, { steps: 12 });
  await to.hover();
  await page.mouse.up();
}

const node = (page: Page, label: string) =>
  page
    .getByRole('region', { name: 'Workflow graph' })
    .getByRole('group', { name: `Step ${label}` });
const targetOf = (n: Locator) => n.locator('.react-flow__handle-top');

/** Links two steps by dragging from `handle` (a source handle's name) to the target's top. */
async function link(page: Page, handle: string, target: string, edges: number): Promise<void> {
  await drag(page, page.getByTitle(handle, { exact: true }), targetOf(node(page, target)));
  // Transitions only: the dashed edges from the trigger to the first steps are not links.
  await expect(
    page.locator('.react-flow__edge:not([data-testid^="rf__edge-trigger->"])'),
  ).toHaveCount(edges);
}

async function addStep(page: Page, type: string, fill: (panel: Locator) => Promise<unknown>) {
  await page
    .getByRole('group', { name: 'Step palette' })
    .getByRole('button', { name: type })
    .click();
  const panel = page.getByRole('form', { name: `New ${type} step` });
  await fill(panel);
  await panel.getByRole('button', { name: 'Add step' }).click();
  await expect(panel).toBeHidden();
}

async function executionsOf(
  request: APIRequestContext,
  headers: Record<string, string>,
  id: string,
) {
  const res = await request.get(`/workflows/${id}/executions?limit=100`, { headers });
  return (
    (await res.json()) as {
      executions: {
        id: string;
        contactEmail: string;
        status: string;
        currentStepId: string | null;
      }[];
    }
  ).executions;
}

test('draw a workflow with the mouse, enable it, and follow each execution through the graph', async ({
  page,
  request,
  dns,
  checkA11y,
  snap,
}) => {
  test.setTimeout(180_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  await signUpInBrowser(page, uniqueEmail('workflows'));
  const headers = await projectWithKey(page, 'Workflows project');
  const domain = await verifiedDomain(request, headers, dns);
  const template = await request.post('/templates', {
    headers,
    data: {
      name: 'Welcome',
      subject: 'Welcome',
      body: '<p>Welcome</p>',
      from: `hello@${domain}`,
      type: 'TRANSACTIONAL',
    },
  });
  expect(template.status(), await template.text()).toBe(201);
  const pro = uniqueEmail('pro');
  const free = uniqueEmail('free');
  for (const [email, plan] of [
    [pro, 'pro'],
    [free, 'free'],
  ]) {
    const res = await request.post('/contacts', { headers, data: { email, data: { plan } } });
    expect(res.status(), await res.text()).toBe(201);
  }

  await page.goto('/app/workflows');
  await expect(page.getByText('No workflows yet')).toBeVisible();
  await checkA11y();
  await page.getByRole('button', { name: 'New workflow' }).click();
  const dialog = page.getByRole('dialog', { name: 'New workflow' });
  await dialog.getByLabel('Name').fill('Onboarding');
  await dialog.getByLabel('Starts when this event is tracked').fill('signup');
  await dialog.getByRole('button', { name: 'Create and draw' }).click();
  await expect(page.getByRole('heading', { name: 'Onboarding' })).toBeVisible();

  // The steps, from the palette, each configured in the side panel.
  await addStep(page, 'Send email', (p) =>
    p.getByLabel('Template').selectOption({ label: 'Welcome' }),
  );
  await addStep(page, 'Wait for event', async (p) => {
    await p.getByLabel('Event', { exact: true }).fill('activated');
    await p.getByLabel('Time out after (seconds, optional)').fill('10');
  });
  await addStep(page, 'Condition', async (p) => {
    await p.getByLabel('Field').selectOption({ label: 'plan' });
    await p.getByLabel('Operator').selectOption({ label: 'equals' });
    await p.getByLabel('Value').fill('pro');
  });
  // A 422 from the API lands on the field it names; fixed, the step is added.
  await page
    .getByRole('group', { name: 'Step palette' })
    .getByRole('button', { name: 'Delay' })
    .click();
  const delay = page.getByRole('form', { name: 'New Delay step' });
  await delay.getByLabel('Wait for').fill('0');
  await delay.getByRole('button', { name: 'Add step' }).click();
  await expect(delay.getByLabel('Wait for')).toHaveAttribute('aria-invalid', 'true');
  await delay.getByRole('button', { name: 'Cancel' }).click();
  await addStep(page, 'Update contact', (p) =>
    p.getByLabel('Data to set (JSON; null deletes a key)').fill('{"activated": true}'),
  );
  await addStep(page, 'Exit', (p) => p.getByLabel('Reason (optional)').fill('not pro'));
  await expect(page.locator('.react-flow__node')).toHaveCount(6);

  // The links, drawn from handle to handle.
  await link(page, 'Next after Send email', 'Wait for event', 1);
  await link(page, 'event branch of Wait for event', 'Condition', 2);
  await link(page, 'yes branch of Condition', 'Update contact', 3);
  await link(page, 'no branch of Condition', 'Exit', 4);

  // Enabling with the wait's timeout branch unlinked: the refusal shows on that node.
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(node(page, 'Wait for event')).toContainText(
    'no transition for its "timeout" branch',
  );
  await snap('editor-problem');
  // The step listing its problem is taller than the others, and the layout makes room for it.
  await expect.poll(() => overlappingNodes(page)).toEqual([]);
  await link(page, 'timeout branch of Wait for event', 'Condition', 5);
  await expect(page.getByTestId('workflow-problems')).toHaveCount(0);

  // A step inserted on a link: the condition's yes now passes through a tag first.
  const workflowId = /\/workflows\/([0-9a-f-]{36})$/.exec(page.url())?.[1] as string;
  const links = async () =>
    (
      (await (await request.get(`/workflows/${workflowId}`, { headers })).json()) as {
        transitions: { id: string; branch: string | null; fromStepId: string; toStepId: string }[];
      }
    ).transitions;
  const yes = (await links()).find((t) => t.branch === 'yes');
  // Linking the timeout branch shortened the wait's node: click once the refit is over.
  const yesEdge = page.getByTestId(`rf__edge-${yes?.id}`);
  await expect.poll(() => graphInView(page)).toBe(true);
  await settledBox(page, yesEdge);
  await yesEdge.click();
  await page.getByLabel('Insert a step here').selectOption({ label: 'Add tag' });
  await page.getByRole('button', { name: 'Insert', exact: true }).click();
  const tag = page.getByRole('form', { name: 'New Add tag step' });
  await tag.getByLabel('Tag').fill('activated');
  await tag.getByRole('button', { name: 'Add step' }).click();
  await expect(tag).toBeHidden();
  await expect(
    page.locator('.react-flow__edge:not([data-testid^="rf__edge-trigger->"])'),
  ).toHaveCount(6);
  await expect(page.getByTestId('workflow-problems')).toHaveCount(0);
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByTestId('workflow-state')).toContainText('Enabled');
  await checkA11y();
  await snap('editor');

  // Two signups, one activation: one path to the update, one to the exit after the timeout.
  for (const email of [pro, free]) {
    const res = await request.post('/v1/track', { headers, data: { email, event: 'signup' } });
    expect(res.status(), await res.text()).toBe(200);
  }
  await expect
    .poll(
      async () => (await executionsOf(request, headers, workflowId)).map((x) => x.status).sort(),
      { timeout: 40_000 },
    )
    .toEqual(['WAITING', 'WAITING']);
  const tracked = await request.post('/v1/track', {
    headers,
    data: { email: pro, event: 'activated' },
  });
  expect(tracked.status()).toBe(200);
  await expect
    .poll(
      async () => (await executionsOf(request, headers, workflowId)).map((x) => x.status).sort(),
      {
        timeout: 40_000,
      },
    )
    .toEqual(['COMPLETED', 'EXITED']);

  // The editor draws the counts on its nodes.
  await expect(node(page, 'Condition').getByTestId('step-counts')).toContainText('2 passed');
  await expect(node(page, 'Update contact').getByTestId('step-counts')).toContainText('1 passed');
  await expect(node(page, 'Add tag').getByTestId('step-counts')).toContainText('1 passed');
  await expect(node(page, 'Exit').getByTestId('step-counts')).toContainText('1 exited');
  await expect(node(page, 'Send email').getByTestId('step-counts')).toContainText('2 passed');

  // Each execution's page shows its own path.
  await page.getByRole('link', { name: 'Executions' }).click();
  await expect(page.getByTestId('count-COMPLETED')).toHaveText('1');
  await expect(page.getByTestId('count-EXITED')).toHaveText('1');
  await checkA11y();
  await page.getByRole('link', { name: pro }).click();
  const path = page.getByRole('region', { name: 'Path of this execution' });
  await expect(page.getByTestId('execution-status')).toContainText('completed');
  await expect(path.getByRole('group', { name: 'Step Update contact' })).toHaveAttribute(
    'data-visited',
    'true',
  );
  await expect(path.getByRole('group', { name: 'Step Add tag' })).toHaveAttribute(
    'data-visited',
    'true',
  );
  await expect(path.getByRole('group', { name: 'Step Exit' })).not.toHaveAttribute(
    'data-visited',
    'true',
  );
  await checkA11y();
  await snap('execution-completed');
  await page.getByRole('link', { name: /Executions of Onboarding/ }).click();
  await page.getByRole('link', { name: free }).click();
  await expect(page.getByTestId('execution-status')).toContainText('exited');
  await expect(path.getByRole('group', { name: 'Step Exit' })).toHaveAttribute(
    'data-visited',
    'true',
  );
  await expect(path.getByRole('group', { name: 'Step Update contact' })).not.toHaveAttribute(
    'data-visited',
    'true',
  );
  await expect(page.getByRole('table', { name: 'Steps taken' })).toContainText('Wait for event');
  // The path is the one taken: out of the wait by its timeout, not by the event.
  const detail = (await (await request.get(`/workflows/${workflowId}`, { headers })).json()) as {
    transitions: { id: string; branch: string | null }[];
  };
  const edge = (branch: string) =>
    path.getByTestId(`rf__edge-${detail.transitions.find((t) => t.branch === branch)?.id}`);
  await expect(edge('timeout')).toHaveClass(/animated/);
  await expect(edge('no')).toHaveClass(/animated/);
  await expect(edge('event')).not.toHaveClass(/animated/);
  await expect(edge('yes')).not.toHaveClass(/animated/);
  await snap('execution-exited');

  // Duplicate: a disabled copy with the same steps and links, opened at once.
  await page.goto(`/app/workflows/${workflowId}`);
  await page.getByRole('button', { name: 'Duplicate Onboarding' }).click();
  await expect(page.getByRole('heading', { name: 'Onboarding (copy)' })).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(workflowId));
  await expect(page.getByTestId('workflow-state')).toContainText('Disabled');
  await expect(
    page.locator('.react-flow__edge:not([data-testid^="rf__edge-trigger->"])'),
  ).toHaveCount(6);
  await snap('duplicated');

  // The copy is disabled, so its trigger changes in the trigger's panel; the original keeps its.
  const copyId = /\/workflows\/([0-9a-f-]{36})$/.exec(page.url())?.[1] as string;
  await page
    .getByRole('region', { name: 'Workflow graph' })
    .getByRole('group', { name: 'Trigger', exact: true })
    .click();
  const trigger = page.getByRole('form', { name: 'Trigger' });
  await expect(trigger.getByLabel('Starts when')).toHaveValue('EVENT');
  await expect(trigger.getByLabel('Event name')).toHaveValue('signup');
  await trigger.getByLabel('Event name').fill('trial.started');
  await trigger.getByRole('button', { name: 'Save trigger' }).click();
  await expect(page.getByTestId('workflow-state')).toHaveText(
    'Disabled · When “trial.started” is tracked',
  );
  await expect(
    page
      .getByRole('region', { name: 'Workflow graph' })
      .getByRole('group', { name: 'Trigger', exact: true }),
  ).toContainText('When “trial.started” is tracked');
  await expect(trigger.getByLabel('Event name')).toHaveValue('trial.started');
  await expect(trigger.getByRole('button', { name: 'Save trigger' })).toBeEnabled();
  await checkA11y();
  await snap('trigger-changed');
  await trigger.getByLabel('Starts when').selectOption({ label: 'Started through the API only' });
  await expect(trigger.getByLabel('Event name')).toHaveCount(0);
  await trigger.getByRole('button', { name: 'Save trigger' }).click();
  await expect(page.getByTestId('workflow-state')).toHaveText('Disabled · Started through the API');
  await expect(trigger.getByLabel('Starts when')).toHaveValue('MANUAL');
  await expect(trigger.getByRole('button', { name: 'Save trigger' })).toBeEnabled();
  const triggerOf = async (id: string) =>
    (await (await request.get(`/workflows/${id}`, { headers })).json()) as {
      enabled: boolean;
      triggerType: string;
      triggerConfig: Record<string, string>;
    };
  expect(await triggerOf(copyId)).toMatchObject({
    enabled: false,
    triggerType: 'MANUAL',
    triggerConfig: {},
  });
  expect(await triggerOf(workflowId)).toMatchObject({
    enabled: true,
    triggerType: 'EVENT',
    triggerConfig: { eventName: 'signup' },
  });
  await snap('trigger-manual');

  // Narrowed to a phone's width, the canvas fits the whole graph in view again.
  await page.setViewportSize({ width: 390, height: 800 });
  const canvas = page.getByRole('region', { name: 'Workflow graph' });
  await expect
    .poll(async () => {
      const area = await canvas.boundingBox();
      const nodes = await canvas.locator('.react-flow__node').all();
      const boxes = await Promise.all(nodes.map((n) => n.boundingBox()));
      return boxes.every((b) => area && b && b.x >= area.x && b.x + b.width <= area.x + area.width);
    })
    .toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(pageErrors).toEqual([]);
});
