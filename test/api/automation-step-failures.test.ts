import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
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
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('an instant step that keeps failing', () => {
  it('ends the execution FAILED with its reason after a bounded number of attempts', async () => {
    // A rule of the database (added as an operator could) refuses the one write the step makes:
    // every attempt of the UPDATE_CONTACT throws, as it would against a database that refuses
    // it for good. The key is this test's own, so no other contact is concerned.
    const key = `refused_${randomUUID().replaceAll('-', '')}`;
    const constraint = `contacts_${key}_check`;
    await withDatabase((db) =>
      db.query(
        `ALTER TABLE contacts ADD CONSTRAINT ${constraint} CHECK (NOT (data ? '${key}')) NOT VALID`,
      ),
    );
    try {
      const { sk } = await projectFixture(stack.api);
      const workflow = await buildWorkflow(stack.api, sk, {
        steps: {
          mark: { type: 'UPDATE_CONTACT', config: { data: { seen: true } } },
          refused: { type: 'UPDATE_CONTACT', config: { data: { [key]: true } } },
          after: { type: 'UPDATE_CONTACT', config: { data: { after: true } } },
        },
        links: [
          ['mark', 'refused'],
          ['refused', 'after'],
        ],
      });
      const email = uniqueEmail('refused');
      const started = Date.now();
      await track(stack.api, sk, email, 'signup');
      const [execution] = await waitForExecutions(stack.api, sk, workflow.id);
      const done = await waitForExecution(stack.api, sk, workflow.id, execution!.id, ended, {
        timeoutMs: 90_000,
      });
      expect(done.status, JSON.stringify(done)).toBe('FAILED');
      expect(done.error).toContain(constraint);
      expect(done.steps.map((s) => [s.stepId, s.status])).toEqual([
        [workflow.steps.mark, 'COMPLETED'],
        [workflow.steps.refused, 'FAILED'],
      ]);
      expect(done.steps[1]!.error).toContain(constraint);
      // Retried with backoff first (1 + 2 + 4 + 8 s between five attempts), not failed at once.
      expect(Date.now() - started).toBeGreaterThanOrEqual(14_000);
      const contact = await stack.api.get(`/contacts/${done.contactId}`, sk);
      expect(contact.body.data).toEqual({ seen: true });
    } finally {
      await withDatabase((db) => db.query(`ALTER TABLE contacts DROP CONSTRAINT ${constraint}`));
    }
  }, 120_000);
});
