import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';
import {
  buildWorkflow,
  track,
  waitForExecution,
  waitForExecutions,
  waitingAt,
} from '../helpers/workflows.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('GET /workflows/:id/step-counts', () => {
  it('counts per step the executions that passed it, wait at it now, and exited there', async () => {
    const { sk } = await projectFixture(stack.api);
    const other = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'signup',
      steps: {
        mark: { type: 'UPDATE_CONTACT', config: { data: { onboarding: true } } },
        wait: { type: 'WAIT_FOR_EVENT', config: { eventName: 'activated' } },
        check: {
          type: 'CONDITION',
          config: { field: 'data.plan', operator: 'equals', value: 'pro' },
        },
        reward: { type: 'UPDATE_CONTACT', config: { data: { rewarded: true } } },
        leave: { type: 'EXIT', config: { reason: 'not pro' } },
      },
      links: [
        ['mark', 'wait'],
        ['wait', 'check', 'event'],
        ['check', 'reward', 'yes'],
        ['check', 'leave', 'no'],
      ],
    });
    const people = {
      pro: uniqueEmail('pro'),
      free: uniqueEmail('free'),
      late: uniqueEmail('late'),
    };
    for (const [label, email] of Object.entries(people)) {
      const res = await stack.api.post('/contacts', {
        ...sk,
        body: { email, data: { plan: label === 'free' ? 'free' : 'pro' } },
      });
      expect(res.status, res.text).toBe(201);
      await track(stack.api, sk, email, 'signup');
    }
    const executions = await waitForExecutions(stack.api, sk, workflow.id, { count: 3 });
    for (const x of executions) {
      await waitForExecution(stack.api, sk, workflow.id, x.id, waitingAt(workflow.steps.wait!));
    }
    await track(stack.api, sk, people.pro, 'activated');
    await track(stack.api, sk, people.free, 'activated');
    const counts = async () => {
      const res = await stack.api.get(`/workflows/${workflow.id}/step-counts`, sk);
      expect(res.status, res.text).toBe(200);
      return Object.fromEntries(
        (res.body.steps as { stepId: string }[]).map((s) => [s.stepId, s]),
      ) as unknown as Record<
        string,
        { passed: number; here: number; exited: number; failed: number }
      >;
    };
    const expected = {
      [workflow.steps.mark!]: { passed: 3, here: 0, exited: 0, failed: 0 },
      [workflow.steps.wait!]: { passed: 2, here: 1, exited: 0, failed: 0 },
      [workflow.steps.check!]: { passed: 2, here: 0, exited: 0, failed: 0 },
      [workflow.steps.reward!]: { passed: 1, here: 0, exited: 0, failed: 0 },
      [workflow.steps.leave!]: { passed: 1, here: 0, exited: 1, failed: 0 },
    };
    await expect.poll(counts, { timeout: 20_000 }).toMatchObject(expected);

    const foreign = await stack.api.get(`/workflows/${workflow.id}/step-counts`, other.sk);
    expect(foreign.status).toBe(404);
  });
});
