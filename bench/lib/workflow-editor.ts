import type { Browser } from 'playwright';
import { json } from './stack.js';

const STEPS = 60;

/**
 * A workflow of 60 steps through the public API: a chain of UPDATE_CONTACT, DELAY and
 * CONDITION steps whose `no` branches end at EXIT steps, so the canvas lays out a wide graph.
 */
export async function bigWorkflow(apiUrl: string, cookie: string, projectId: string) {
  const headers = { Cookie: cookie, 'X-Project-Id': projectId, Origin: apiUrl };
  const call = async (path: string, body: unknown) => {
    const res = await json(`${apiUrl}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const workflowId = await call('/workflows', { name: 'Sixty steps', triggerEvent: 'signup' });
  let previous: { id: string; branch: string | null } | undefined;
  let made = 0;
  while (made < STEPS) {
    const kind = made % 3;
    const id =
      kind === 0
        ? await call(`/workflows/${workflowId}/steps`, {
            type: 'UPDATE_CONTACT',
            config: { data: { [`k${made}`]: made } },
          })
        : kind === 1
          ? await call(`/workflows/${workflowId}/steps`, {
              type: 'DELAY',
              config: { amount: 1, unit: 'hours' },
            })
          : await call(`/workflows/${workflowId}/steps`, {
              type: 'CONDITION',
              config: { field: `data.k${made - 2}`, operator: 'exists' },
            });
    made += 1;
    if (previous) {
      await call(`/workflows/${workflowId}/transitions`, {
        fromStepId: previous.id,
        toStepId: id,
        branch: previous.branch,
      });
    }
    previous = { id, branch: null };
    if (kind === 2 && made < STEPS) {
      const exit = await call(`/workflows/${workflowId}/steps`, { type: 'EXIT', config: {} });
      made += 1;
      await call(`/workflows/${workflowId}/transitions`, {
        fromStepId: id,
        toStepId: exit,
        branch: 'no',
      });
      previous = { id, branch: 'yes' };
    }
  }
  return workflowId;
}

export const EDITOR_READY = `document.querySelectorAll('.react-flow__node').length >= ${STEPS + 1}`;

/**
 * Frame times while a node is dragged across the canvas with the mouse (60 moves): the gaps
 * between animation frames the page paints meanwhile, in ms, sorted.
 */
export async function dragFrameTimes(
  browser: Browser,
  { url, cookie }: { url: string; cookie: string },
): Promise<number[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const [name, value] = cookie.split(/=(.*)/s) as [string, string];
  await context.addCookies([{ name, value, url: new URL(url).origin }]);
  const page = await context.newPage();
  await page.goto(url);
  // A locator, not waitForFunction: the page's CSP refuses the eval that a string predicate needs.
  await page.locator('.react-flow__node').nth(STEPS).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  const box = await page.locator('.react-flow__node-step').nth(10).boundingBox();
  if (!box) throw new Error('no node to drag');
  await page.evaluate(`(() => {
    window.__frames = [];
    const tick = (t) => { window.__frames.push(t); window.__raf = requestAnimationFrame(tick); };
    window.__raf = requestAnimationFrame(tick);
  })()`);
  const x = box.x + box.width / 2;
  const y = box.y + 20;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 60; i += 1) {
    await page.mouse.move(x + i * 5, y + i * 3);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  const frames = (await page.evaluate(
    `(() => { cancelAnimationFrame(window.__raf); return window.__frames; })()`,
  )) as number[];
  await context.close();
  return frames
    .slice(1)
    .map((t, i) => t - (frames[i] as number))
    .sort((a, b) => a - b);
}
