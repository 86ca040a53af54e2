import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emailCount,
  senderCappedAtOneWorkflowEmail,
  startBillingStack,
  type BillingStack,
} from '../helpers/billing-stack.js';
import { withDatabase } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { uniqueEmail } from '../helpers/factories.js';
import type { TestStack } from '../helpers/stack.js';
import {
  buildWorkflow,
  ended,
  track,
  waitForExecution,
  waitForExecutions,
} from '../helpers/workflows.js';

// The workflows cap: a SEND_EMAIL step past it fails with the reason; one that runs again after
// its own email took the last place goes on.

let billed: BillingStack;
let stack: TestStack;
beforeAll(async () => {
  billed = await startBillingStack();
  ({ stack } = billed);
});
afterAll(async () => {
  await billed?.stop();
});

/**
 * Writes the START command of an execution again, as a dispatcher that died after starting the
 * run (before deleting its command) leaves it, and waits until a dispatcher has carried it out:
 * a run opening with a DELAY takes its first steps at dispatch, so they run again.
 */
async function dispatchStartAgain(executionId: string): Promise<void> {
  await withDatabase(async (db) => {
    const {
      rows: [command],
    } = await db.query(
      `INSERT INTO execution_commands (execution_id, kind, queue)
       SELECT id, 'START', queue FROM executions WHERE id = $1 RETURNING id`,
      [executionId],
    );
    expect(command, 'the START command').toBeDefined();
    let left: { attempts: number; last_error: string | null } | undefined;
    await eventually(
      async () => {
        [left] = (
          await db.query('SELECT attempts, last_error FROM execution_commands WHERE id = $1', [
            command.id,
          ])
        ).rows;
        return left === undefined;
      },
      {
        what: 'the dispatcher to carry out the START again',
        timeoutMs: 30_000,
        describe: () => JSON.stringify(left),
      },
    );
  });
}

/** When the execution's row was last written (each step it begins writes it). */
const executionWrittenAt = async (executionId: string): Promise<Date> =>
  withDatabase(
    async (db) =>
      (await db.query('SELECT updated_at FROM executions WHERE id = $1', [executionId])).rows[0]
        .updated_at as Date,
  );

describe('billing with Stripe (stripe-mock): the workflows cap', () => {
  it('fails a workflow SEND_EMAIL step past the workflows cap, with the reason', async () => {
    const { project, sk, template } = await senderCappedAtOneWorkflowEmail(billed);
    const workflow = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'joined',
      steps: { send: { type: 'SEND_EMAIL', config: { templateId: template.id } } },
    });
    await track(stack.api, sk, uniqueEmail('first'), 'joined');
    const [first] = await waitForExecutions(stack.api, sk, workflow.id);
    const done = await waitForExecution(stack.api, sk, workflow.id, first!.id, ended);
    expect(done.status, JSON.stringify(done.steps)).toBe('COMPLETED');
    await track(stack.api, sk, uniqueEmail('second'), 'joined');
    const executions = await waitForExecutions(stack.api, sk, workflow.id, { count: 2 });
    const second = executions.find((e) => e.id !== first!.id)!;
    const over = await waitForExecution(stack.api, sk, workflow.id, second.id, ended);
    expect(over.status).toBe('FAILED');
    expect(over.steps[0]).toMatchObject({ type: 'SEND_EMAIL', status: 'FAILED' });
    expect(over.steps[0]!.error).toMatch(/workflows cap of 1/);
    expect(await emailCount(project.id)).toBe(1);
  });

  it('lets a SEND_EMAIL step retried after its email took the last place of the cap go on', async () => {
    const { project, sk, template } = await senderCappedAtOneWorkflowEmail(billed);
    const workflow = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'joined',
      steps: {
        send: { type: 'SEND_EMAIL', config: { templateId: template.id } },
        pause: { type: 'DELAY', config: { amount: 10, unit: 'minutes' } },
      },
      links: [['send', 'pause']],
    });
    await track(stack.api, sk, uniqueEmail('retried'), 'joined');
    const [execution] = await waitForExecutions(stack.api, sk, workflow.id);
    await waitForExecution(
      stack.api,
      sk,
      workflow.id,
      execution!.id,
      (x) => x.status === 'WAITING',
    );
    expect(await emailCount(project.id)).toBe(1);

    // The step runs again, as it does when a worker died before its completion was recorded
    // (here the dispatcher, which takes the steps before an opening DELAY): the cap is full, but
    // the email it finds is its own, so it goes on to the DELAY.
    const before = await executionWrittenAt(execution!.id);
    await dispatchStartAgain(execution!.id);
    const after = await executionWrittenAt(execution!.id);
    expect(after.getTime(), 'the steps ran again').toBeGreaterThan(before.getTime());
    const again = await stack.api.get(`/workflows/${workflow.id}/executions/${execution!.id}`, sk);
    expect(again.body).toMatchObject({ status: 'WAITING', currentStepId: workflow.steps.pause });
    expect(again.body.steps[1]).toMatchObject({
      seq: 2,
      stepId: workflow.steps.pause,
      type: 'DELAY',
    });
    expect(again.body.steps[0]).toMatchObject({ type: 'SEND_EMAIL', status: 'COMPLETED' });
    expect(await emailCount(project.id)).toBe(1);
  });
});
