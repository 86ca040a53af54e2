import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';
import { buildWorkflow, track, waitForExecutions } from '../helpers/workflows.js';

// POST /workflows/:id/duplicate (issue 26, item 4): a disabled copy with the trigger, steps and
// links of the original, independent of it.

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

interface StepView {
  id: string;
  type: string;
  name: string | null;
  config: Record<string, unknown>;
  position: unknown;
}
interface TransitionView {
  id: string;
  fromStepId: string;
  toStepId: string;
  branch: string | null;
}

/** The graph with step ids replaced by names, so two copies compare equal. */
function shapeOf(workflow: { steps: StepView[]; transitions: TransitionView[] }) {
  const nameOf = new Map(workflow.steps.map((s) => [s.id, s.name]));
  return {
    steps: workflow.steps
      .map(({ type, name, config, position }) => ({ type, name, config, position }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name))),
    transitions: workflow.transitions
      .map((t) => `${nameOf.get(t.fromStepId)} -${t.branch ?? ''}-> ${nameOf.get(t.toStepId)}`)
      .sort(),
  };
}

describe('POST /workflows/:id/duplicate', () => {
  it('copies trigger, steps and links, disabled, under new ids; the copy changes alone', async () => {
    const { sk } = await projectFixture(stack.api);
    const original = await buildWorkflow(stack.api, sk, {
      name: 'Onboarding',
      triggerEvent: 'signup',
      allowReentry: true,
      steps: {
        mark: { type: 'UPDATE_CONTACT', config: { data: { onboarding: true } } },
        wait: { type: 'DELAY', config: { amount: 1, unit: 'days' } },
        check: {
          type: 'CONDITION',
          config: { field: 'data.plan', operator: 'equals', value: 'pro' },
        },
        reward: { type: 'UPDATE_CONTACT', config: { data: { rewarded: true } } },
        leave: { type: 'EXIT', config: { reason: 'not pro' } },
      },
      links: [
        ['mark', 'wait'],
        ['wait', 'check'],
        ['check', 'reward', 'yes'],
        ['check', 'leave', 'no'],
      ],
    });
    const source = (await stack.api.get(`/workflows/${original.id}`, sk)).body;
    expect(source.enabled).toBe(true);

    const res = await stack.api.post(`/workflows/${original.id}/duplicate`, sk);
    expect(res.status, res.text).toBe(201);
    const copy = res.body;
    expect(copy).toMatchObject({
      name: 'Onboarding (copy)',
      enabled: false,
      triggerType: 'EVENT',
      triggerEvent: 'signup',
      allowReentry: true,
      problems: [],
    });
    expect(copy.id).not.toBe(original.id);
    expect(shapeOf(copy)).toEqual(shapeOf(source));
    const sourceIds = new Set([
      ...source.steps.map((s: StepView) => s.id),
      ...source.transitions.map((t: TransitionView) => t.id),
    ]);
    for (const part of [...copy.steps, ...copy.transitions])
      expect(sourceIds.has(part.id)).toBe(false);
    for (const t of copy.transitions as TransitionView[]) {
      expect(copy.steps.map((s: StepView) => s.id)).toContain(t.fromStepId);
      expect(copy.steps.map((s: StepView) => s.id)).toContain(t.toStepId);
    }
    expect((await stack.api.get('/workflows', sk)).body.total).toBe(2);

    // Disabled, the copy starts nothing; the original still does.
    const email = uniqueEmail('dup');
    await stack.api.post('/contacts', { ...sk, body: { email } });
    await track(stack.api, sk, email, 'signup');
    await waitForExecutions(stack.api, sk, original.id, { count: 1 });
    const copyRuns = await stack.api.get(`/workflows/${copy.id}/executions`, sk);
    expect(copyRuns.body.executions).toHaveLength(0);

    // Changing the copy leaves the original as it was.
    const step = copy.steps.find((s: StepView) => s.name === 'reward');
    const changed = await stack.api.patch(`/workflows/${copy.id}/steps/${step.id}`, {
      ...sk,
      body: { config: { data: { rewarded: 'copy' } } },
    });
    expect(changed.status, changed.text).toBe(200);
    const deleted = await stack.api.delete(`/workflows/${copy.id}/steps/${copy.steps[0].id}`, sk);
    expect(deleted.status).toBeLessThan(300);
    expect(shapeOf((await stack.api.get(`/workflows/${original.id}`, sk)).body)).toEqual(
      shapeOf(source),
    );
    // The copy takes another trigger while the original keeps its own.
    const enabled = await stack.api.patch(`/workflows/${copy.id}`, {
      ...sk,
      body: { triggerEvent: 'upgraded' },
    });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body.triggerEvent).toBe('upgraded');
  });

  it("answers 404 for an unknown id and for another project's workflow, copying nothing", async () => {
    const mine = await projectFixture(stack.api);
    const other = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, mine.sk, {
      steps: { only: { type: 'EXIT', config: {} } },
      enabled: false,
    });
    const foreign = await stack.api.post(`/workflows/${workflow.id}/duplicate`, other.sk);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.statusCode).toBe(404);
    expect((await stack.api.get('/workflows', other.sk)).body.total).toBe(0);
    const unknown = await stack.api.post(
      '/workflows/01900000-0000-7000-8000-000000000000/duplicate',
      mine.sk,
    );
    expect(unknown.status).toBe(404);
    expect((await stack.api.post('/workflows/not-a-uuid/duplicate', mine.sk)).status).toBe(422);
    expect((await stack.api.get('/workflows', mine.sk)).body.total).toBe(1);
  });
});
