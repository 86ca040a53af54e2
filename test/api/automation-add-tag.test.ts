import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';
import {
  buildWorkflow,
  ended,
  track,
  waitForExecution,
  waitForExecutions,
} from '../helpers/workflows.js';

let stack: TestStack;
let sk: { key: string };
beforeAll(async () => {
  stack = await startStack();
  ({ sk } = await projectFixture(stack.api));
});
afterAll(async () => {
  await stack?.stop();
});

/** Runs the workflow for `email` (tracking its trigger) and answers the ended execution. */
async function runFor(workflowId: string, email: string, event: string) {
  await track(stack.api, sk, email, event);
  const [execution] = await waitForExecutions(stack.api, sk, workflowId);
  return waitForExecution(stack.api, sk, workflowId, execution!.id, ended);
}

describe('the ADD_TAG step', () => {
  it("adds its tag to the contact's data.tags once, starting the list when there is none", async () => {
    const workflow = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'tag-me',
      steps: {
        vip: { type: 'ADD_TAG', config: { tag: 'vip' } },
        again: { type: 'ADD_TAG', config: { tag: ' vip ' } },
        beta: { type: 'ADD_TAG', config: { tag: 'beta' } },
      },
      links: [
        ['vip', 'again'],
        ['again', 'beta'],
      ],
      allowReentry: true,
    });
    const email = uniqueEmail('tagged');
    const created = await stack.api.post('/contacts', {
      ...sk,
      body: { email, data: { tags: ['early'], plan: 'pro' } },
    });
    expect(created.status, created.text).toBeLessThan(300);

    const done = await runFor(workflow.id, email, 'tag-me');
    expect(done.status, JSON.stringify(done)).toBe('COMPLETED');
    expect(done.steps.map((s) => s.result)).toEqual([
      { tag: 'vip', added: true },
      { tag: 'vip', added: false },
      { tag: 'beta', added: true },
    ]);
    const contact = await stack.api.get(`/contacts/${created.body.id}`, sk);
    expect(contact.body.data).toEqual({ tags: ['early', 'vip', 'beta'], plan: 'pro' });
    // The fields page names the workflow among the users of `tags`, not of other fields.
    const usage = await stack.api.get('/contacts/fields/tags/usage', sk);
    expect(usage.body.workflows.map((w: { id: string }) => w.id)).toContain(workflow.id);
    const planUsage = await stack.api.get('/contacts/fields/plan/usage', sk);
    expect(planUsage.body.workflows.map((w: { id: string }) => w.id)).not.toContain(workflow.id);

    // A contact with no data at all gets a list of its own.
    const fresh = uniqueEmail('fresh');
    const other = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'tag-fresh',
      steps: { vip: { type: 'ADD_TAG', config: { tag: 'vip' } } },
    });
    const freshDone = await runFor(other.id, fresh, 'tag-fresh');
    expect(freshDone.status).toBe('COMPLETED');
    const freshContact = await stack.api.get(`/contacts/${freshDone.contactId}`, sk);
    expect(freshContact.body.data).toEqual({ tags: ['vip'] });
  }, 90_000);

  it('fails the execution with its reason, changing nothing, when data.tags is not a list', async () => {
    const workflow = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'tag-odd',
      steps: { vip: { type: 'ADD_TAG', config: { tag: 'vip' } } },
    });
    const email = uniqueEmail('odd');
    const created = await stack.api.post('/contacts', {
      ...sk,
      body: { email, data: { tags: 'gold' } },
    });
    expect(created.status, created.text).toBeLessThan(300);
    const done = await runFor(workflow.id, email, 'tag-odd');
    expect(done.status).toBe('FAILED');
    expect(done.error).toContain('data.tags');
    const contact = await stack.api.get(`/contacts/${created.body.id}`, sk);
    expect(contact.body.data).toEqual({ tags: 'gold' });
  }, 90_000);

  it('takes a tag of 1 to 200 characters and refuses others with a 422 at config.tag', async () => {
    const created = await stack.api.post('/workflows', {
      ...sk,
      body: { name: 'Tag limits', triggerEvent: 'tag-limits' },
    });
    expect(created.status, created.text).toBe(201);
    const addStep = (config: unknown) =>
      stack.api.post(`/workflows/${created.body.id}/steps`, {
        ...sk,
        body: { type: 'ADD_TAG', config },
      });
    expect((await addStep({ tag: 't'.repeat(200) })).status).toBe(201);
    for (const config of [{}, { tag: '' }, { tag: '   ' }, { tag: 't'.repeat(201) }, { tag: 7 }]) {
      const res = await addStep(config);
      expect(res.status, JSON.stringify(config)).toBe(422);
      expect(res.body.error.errors[0].field).toBe('config.tag');
    }
    expect((await addStep({ tag: 'x', extra: 1 })).status).toBe(422);
    const steps = await stack.api.get(`/workflows/${created.body.id}`, sk);
    expect(steps.body.steps).toHaveLength(1);
  });
});
