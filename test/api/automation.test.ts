import { Client as TemporalClient, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import { keepHistory } from '../helpers/histories.js';
import { eventually } from '../helpers/eventually.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { signalTaken } from '../helpers/temporal-runs.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { DnsServer } from '../helpers/dns-server.js';
import type { TestStack } from '../helpers/stack.js';
import {
  buildWorkflow,
  firstExecutionWaitingAt,
  ended,
  track,
  waitForExecution,
  waitForExecutions,
  waitingAt,
} from '../helpers/workflows.js';

let stack: TestStack;
let dns: DnsServer;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stack, dns, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

type Sk = { key: string };

/** Signals an execution's run directly, as an operator could from the Temporal CLI. */
async function signalExecution(executionId: string, event: Record<string, unknown>) {
  const connection = await Connection.connect({ address: inject('stack').temporalAddress });
  try {
    await new TemporalClient({ connection }).workflow
      .getHandle(`execution-${executionId}`)
      .signal('executionEvent', event);
  } finally {
    await connection.close();
  }
}

/** A project with a verified domain and a marketing template sent from it. */
async function sendingProject(): Promise<{ sk: Sk; templateId: string; domain: string }> {
  const { sk } = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('auto'));
  const template = await stack.api.post('/templates', {
    ...sk,
    body: {
      name: 'Welcome',
      subject: 'Welcome {{ firstName | default("there") }}',
      body: '<p>Hello {{ email }}, plan {{ event.plan }}</p>',
      type: 'TRANSACTIONAL',
      from: `hello@${domain}`,
    },
  });
  expect(template.status, template.text).toBe(201);
  return { sk, templateId: template.body.id, domain };
}

describe('the signup workflow of the issue', () => {
  // SEND_EMAIL -> WAIT_FOR_EVENT(purchase, 5 s) -> event: CONDITION(data.plan equals pro)
  //   -> yes: UPDATE_CONTACT / no: EXIT; timeout: UPDATE_CONTACT
  async function signupWorkflow(sk: Sk, templateId: string) {
    return buildWorkflow(stack.api, sk, {
      triggerEvent: 'signup',
      steps: {
        send: { type: 'SEND_EMAIL', config: { templateId } },
        wait: { type: 'WAIT_FOR_EVENT', config: { eventName: 'purchase', timeoutSeconds: 5 } },
        pro: {
          type: 'CONDITION',
          config: { field: 'data.plan', operator: 'equals', value: 'pro' },
        },
        upgraded: { type: 'UPDATE_CONTACT', config: { data: { stage: 'customer' } } },
        notPro: { type: 'EXIT', config: { reason: 'not pro' } },
        lapsed: { type: 'UPDATE_CONTACT', config: { data: { stage: 'lapsed' } } },
      },
      links: [
        ['send', 'wait'],
        ['wait', 'pro', 'event'],
        ['wait', 'lapsed', 'timeout'],
        ['pro', 'upgraded', 'yes'],
        ['pro', 'notPro', 'no'],
      ],
    });
  }

  it('sends the email, then resumes on the purchase event (event branch)', async () => {
    const { sk, templateId } = await sendingProject();
    const workflow = await signupWorkflow(sk, templateId);
    const email = uniqueEmail('signup').toLowerCase();
    await track(stack.api, sk, email, 'signup', { plan: 'pro' });

    const mail = await stack.smtp.waitFor((m) => m.to.includes(email));
    expect(mail.parsed.subject).toBe('Welcome there');
    expect(mail.parsed.html).toContain('plan pro');

    const execution = await firstExecutionWaitingAt(stack.api, sk, workflow, 'wait');
    await track(stack.api, sk, email, 'purchase', { amount: 42 });
    const done = await waitForExecution(stack.api, sk, workflow.id, execution!.id, ended);
    expect(done.status).toBe('COMPLETED');
    expect(done.steps.map((s) => [s.type, s.status])).toEqual([
      ['SEND_EMAIL', 'COMPLETED'],
      ['WAIT_FOR_EVENT', 'COMPLETED'],
      ['CONDITION', 'COMPLETED'],
      ['UPDATE_CONTACT', 'COMPLETED'],
    ]);
    expect(done.steps[1]?.result).toMatchObject({ event: { name: 'purchase' } });
    expect(done.steps[2]?.result).toEqual({ matched: true });
    expect(done.context).toEqual({ purchase: { amount: 42 } });
    const contact = await stack.api.get(`/contacts/${done.contactId}`, sk);
    expect(contact.body.data.stage).toBe('customer');

    // Its email.* events carry the workflow and the execution.
    const events = await stack.api.get(`/events/contact/${done.contactId}`, sk);
    const sent = events.body.data.find((e: { name: string }) => e.name === 'email.sent');
    expect(sent.data).toMatchObject({ workflowId: workflow.id, executionId: execution!.id });
    await keepHistory('execution.email-wait-event-condition-yes', `execution-${execution!.id}`);
  });

  it('takes the timeout branch when no purchase comes within 5 s', async () => {
    const { sk, templateId } = await sendingProject();
    const workflow = await signupWorkflow(sk, templateId);
    const email = uniqueEmail('lapsed').toLowerCase();
    await track(stack.api, sk, email, 'signup');
    const [execution] = await waitForExecutions(stack.api, sk, workflow.id);
    const done = await waitForExecution(stack.api, sk, workflow.id, execution!.id, ended);
    expect(done.status).toBe('COMPLETED');
    expect(done.steps.map((s) => s.type)).toEqual([
      'SEND_EMAIL',
      'WAIT_FOR_EVENT',
      'UPDATE_CONTACT',
    ]);
    expect(done.steps[1]?.result).toEqual({ timedOut: true });
    const contact = await stack.api.get(`/contacts/${done.contactId}`, sk);
    expect(contact.body.data.stage).toBe('lapsed');
    await keepHistory('execution.wait-timeout', `execution-${execution!.id}`);
  });

  it('exits on the no branch when the plan is not pro', async () => {
    const { sk, templateId } = await sendingProject();
    const workflow = await signupWorkflow(sk, templateId);
    const email = uniqueEmail('basic').toLowerCase();
    await track(stack.api, sk, email, 'signup', { plan: 'basic' });
    const execution = await firstExecutionWaitingAt(stack.api, sk, workflow, 'wait');
    await track(stack.api, sk, email, 'purchase');
    const done = await waitForExecution(stack.api, sk, workflow.id, execution!.id, ended);
    expect(done.status).toBe('EXITED');
    expect(done.exitReason).toBe('not pro');
    expect(done.steps.map((s) => s.type)).toEqual([
      'SEND_EMAIL',
      'WAIT_FOR_EVENT',
      'CONDITION',
      'EXIT',
    ]);
    await keepHistory('execution.condition-no-exit', `execution-${execution!.id}`);
  });
});

describe('WAIT_FOR_EVENT', () => {
  it('is not resumed by an event tracked before it began, and is by one tracked during it', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'signup',
      allowReentry: true,
      steps: {
        pause: { type: 'DELAY', config: { amount: 2, unit: 'seconds' } },
        wait: { type: 'WAIT_FOR_EVENT', config: { eventName: 'purchase', timeoutSeconds: 3 } },
        bought: { type: 'UPDATE_CONTACT', config: { data: { outcome: 'bought' } } },
        gaveUp: { type: 'UPDATE_CONTACT', config: { data: { outcome: 'timeout' } } },
      },
      links: [
        ['pause', 'wait'],
        ['wait', 'bought', 'event'],
        ['wait', 'gaveUp', 'timeout'],
      ],
    });

    const early = uniqueEmail('early').toLowerCase();
    await track(stack.api, sk, early, 'signup');
    const [first] = await waitForExecutions(stack.api, sk, workflow.id);
    await waitForExecution(
      stack.api,
      sk,
      workflow.id,
      first!.id,
      waitingAt(workflow.steps.pause as string),
    );
    await track(stack.api, sk, early, 'purchase'); // during the DELAY: before the wait began
    const earlyDone = await waitForExecution(stack.api, sk, workflow.id, first!.id, ended);
    expect(earlyDone.steps[1]?.result).toEqual({ timedOut: true });

    const late = uniqueEmail('late').toLowerCase();
    await track(stack.api, sk, late, 'signup');
    const [second] = await waitForExecutions(stack.api, sk, workflow.id, { count: 2 });
    await waitForExecution(
      stack.api,
      sk,
      workflow.id,
      second!.id,
      waitingAt(workflow.steps.wait as string),
    );
    await track(stack.api, sk, late, 'purchase', { sku: 'A-1' });
    const lateDone = await waitForExecution(stack.api, sk, workflow.id, second!.id, ended);
    expect(lateDone.steps[1]?.result).toMatchObject({ event: { name: 'purchase' } });
    expect(lateDone.context).toEqual({ purchase: { sku: 'A-1' } });
    const contact = await stack.api.get(`/contacts/${lateDone.contactId}`, sk);
    expect(contact.body.data.outcome).toBe('bought');
  });

  it('counts an event delivered twice once', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, sk, {
      steps: {
        first: { type: 'WAIT_FOR_EVENT', config: { eventName: 'purchase', timeoutSeconds: 20 } },
        note: { type: 'UPDATE_CONTACT', config: { data: { purchases: 1 } } },
        second: { type: 'WAIT_FOR_EVENT', config: { eventName: 'purchase', timeoutSeconds: 2 } },
        again: { type: 'UPDATE_CONTACT', config: { data: { purchases: 2 } } },
        once: { type: 'EXIT', config: { reason: 'one purchase' } },
      },
      links: [
        ['first', 'note', 'event'],
        ['first', 'once', 'timeout'],
        ['note', 'second'],
        ['second', 'again', 'event'],
        ['second', 'once', 'timeout'],
      ],
    });
    const email = uniqueEmail('twice').toLowerCase();
    await track(stack.api, sk, email, 'signup');
    const execution = await firstExecutionWaitingAt(stack.api, sk, workflow, 'first');
    const purchase = await track(stack.api, sk, email, 'purchase');
    await waitForExecution(
      stack.api,
      sk,
      workflow.id,
      execution!.id,
      waitingAt(workflow.steps.second as string),
    );
    // The same event again (a retried dispatch), its copy claiming a later time, so that only
    // its id tells it apart from a new purchase during the second wait.
    await signalExecution(execution!.id, {
      id: purchase.event,
      name: 'purchase',
      data: {},
      createdAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const done = await waitForExecution(stack.api, sk, workflow.id, execution!.id, ended);
    expect(done.status).toBe('EXITED');
    expect(done.steps.map((s) => s.type)).toEqual([
      'WAIT_FOR_EVENT',
      'UPDATE_CONTACT',
      'WAIT_FOR_EVENT',
      'EXIT',
    ]);
    expect(done.steps[2]?.result).toEqual({ timedOut: true });
  });
});

/** A workflow that notes every `signup` it sees: proof that the dispatcher has seen an event. */
async function signupCounter(sk: Sk) {
  return buildWorkflow(stack.api, sk, {
    name: 'Counter',
    allowReentry: true,
    steps: { note: { type: 'UPDATE_CONTACT', config: { data: { counted: true } } } },
  });
}

/**
 * The counter's executions once all have ended: it allows reentry only after an execution ends,
 * so a signup tracked while its last one still runs would (rightly) start none.
 */
async function counterSettled(sk: Sk, counterId: string, count: number) {
  const executions = await waitForExecutions(stack.api, sk, counterId, { count });
  for (const x of executions) await waitForExecution(stack.api, sk, counterId, x.id, ended);
}

async function executionsOf(sk: Sk, workflowId: string) {
  const res = await stack.api.get(`/workflows/${workflowId}/executions?limit=100`, sk);
  expect(res.status, res.text).toBe(200);
  return res.body.executions as { id: string; status: string }[];
}

describe('reentry', () => {
  it('allowReentry false: a second signup of the contact starts nothing, ever', async () => {
    const { sk } = await projectFixture(stack.api);
    const once = await buildWorkflow(stack.api, sk, {
      allowReentry: false,
      steps: { note: { type: 'UPDATE_CONTACT', config: { data: { welcomed: true } } } },
    });
    const counter = await signupCounter(sk);
    const email = uniqueEmail('once').toLowerCase();
    await track(stack.api, sk, email, 'signup');
    const [first] = await waitForExecutions(stack.api, sk, once.id);
    await waitForExecution(stack.api, sk, once.id, first!.id, ended);
    await counterSettled(sk, counter.id, 1);
    await track(stack.api, sk, email, 'signup');
    await waitForExecutions(stack.api, sk, counter.id, { count: 2 });
    expect(await executionsOf(sk, once.id)).toHaveLength(1);
  });

  it('allowReentry true: a new execution only after the first ended', async () => {
    const { sk } = await projectFixture(stack.api);
    const again = await buildWorkflow(stack.api, sk, {
      allowReentry: true,
      // Long enough that the counter settles while this first execution still waits.
      steps: { pause: { type: 'DELAY', config: { amount: 5, unit: 'seconds' } } },
    });
    const counter = await signupCounter(sk);
    const email = uniqueEmail('again').toLowerCase();
    await track(stack.api, sk, email, 'signup');
    const [first] = await waitForExecutions(stack.api, sk, again.id);
    await counterSettled(sk, counter.id, 1);
    await track(stack.api, sk, email, 'signup'); // while the first is still waiting
    await waitForExecutions(stack.api, sk, counter.id, { count: 2 });
    expect(await executionsOf(sk, again.id)).toHaveLength(1);
    const done = await waitForExecution(stack.api, sk, again.id, first!.id, ended);
    expect(done.status).toBe('COMPLETED');
    await track(stack.api, sk, email, 'signup');
    const executions = await waitForExecutions(stack.api, sk, again.id, { count: 2 });
    expect(executions.map((x) => x.contactId)).toEqual([done.contactId, done.contactId]);
  });
});

describe('SEGMENT_ENTRY', () => {
  it("starts on a tracked segment's entry event", async () => {
    const { sk } = await projectFixture(stack.api);
    const segment = await stack.api.post('/segments', {
      ...sk,
      body: {
        name: `VIP ${Math.random().toString(36).slice(2, 8)}`,
        trackMembership: true,
        filters: {
          operator: 'AND',
          conditions: [{ field: 'data.vip', operator: 'equals', value: true }],
        },
      },
    });
    expect(segment.status, segment.text).toBe(201);
    const workflow = await buildWorkflow(stack.api, sk, {
      steps: { hello: { type: 'UPDATE_CONTACT', config: { data: { vipWelcomed: true } } } },
      patch: { triggerType: 'SEGMENT_ENTRY', triggerConfig: { segmentId: segment.body.id } },
    });
    const contact = await stack.api.post('/contacts', {
      ...sk,
      body: { email: uniqueEmail('vip'), data: { vip: true } },
    });
    await stack.api.post('/contacts', { ...sk, body: { email: uniqueEmail('plain'), data: {} } });
    const computed = await stack.api.post(`/segments/${segment.body.id}/compute`, sk);
    expect(computed.body).toMatchObject({ added: 1 });
    const [execution] = await waitForExecutions(stack.api, sk, workflow.id);
    const done = await waitForExecution(stack.api, sk, workflow.id, execution!.id, ended);
    expect(done).toMatchObject({ status: 'COMPLETED', contactId: contact.body.id });
    expect(done.triggerEvent).toMatchObject({ data: { segmentId: segment.body.id } });
    const after = await stack.api.get(`/contacts/${contact.body.id}`, sk);
    expect(after.body.data.vipWelcomed).toBe(true);
  });
});

/** The Temporal status of an execution's run (RUNNING, COMPLETED, CANCELLED...). */
async function runStatus(executionId: string): Promise<string> {
  const connection = await Connection.connect({ address: inject('stack').temporalAddress });
  try {
    const described = await new TemporalClient({ connection }).workflow
      .getHandle(`execution-${executionId}`)
      .describe()
      .catch((error: unknown) => {
        if (error instanceof WorkflowNotFoundError) return undefined;
        throw error;
      });
    return described?.status.name ?? 'NOT_STARTED';
  } finally {
    await connection.close();
  }
}

async function waitForRunStatus(executionId: string, status: string): Promise<void> {
  await eventually(async () => (await runStatus(executionId)) === status, {
    what: `the run of ${executionId} to be ${status}`,
    timeoutMs: 20_000,
  });
}

describe('cancelling', () => {
  async function delayedSend(sk: Sk, templateId: string) {
    return buildWorkflow(stack.api, sk, {
      allowReentry: true,
      steps: {
        pause: { type: 'DELAY', config: { amount: 3, unit: 'seconds' } },
        send: { type: 'SEND_EMAIL', config: { templateId } },
      },
      links: [['pause', 'send']],
    });
  }

  it('cancels one execution: CANCELLED, its run cancelled, the email after its DELAY never sent', async () => {
    const { sk, templateId } = await sendingProject();
    const workflow = await delayedSend(sk, templateId);
    const email = uniqueEmail('cancel').toLowerCase();
    await track(stack.api, sk, email, 'signup');
    const execution = await firstExecutionWaitingAt(stack.api, sk, workflow, 'pause');

    const cancelled = await stack.api.delete(
      `/workflows/${workflow.id}/executions/${execution!.id}`,
      sk,
    );
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
    await waitForRunStatus(execution!.id, 'CANCELLED');
    const after = await stack.api.get(`/workflows/${workflow.id}/executions/${execution!.id}`, sk);
    expect(after.body.steps).toEqual([
      expect.objectContaining({ type: 'DELAY', status: 'CANCELLED' }),
    ]);
    expect(stack.smtp.messages.some((m) => m.to.includes(email))).toBe(false);

    const again = await stack.api.delete(
      `/workflows/${workflow.id}/executions/${execution!.id}`,
      sk,
    );
    expect(again.status).toBe(409);
    await keepHistory('execution.cancelled-in-delay', `execution-${execution!.id}`);
  });

  it('cancel-all cancels every active execution, and none of them sends', async () => {
    const { sk, templateId } = await sendingProject();
    const workflow = await delayedSend(sk, templateId);
    const emails = [1, 2, 3].map((i) => uniqueEmail(`all${i}`).toLowerCase());
    for (const email of emails) await track(stack.api, sk, email, 'signup');
    const executions = await waitForExecutions(stack.api, sk, workflow.id, { count: 3 });
    for (const x of executions) {
      await waitForExecution(
        stack.api,
        sk,
        workflow.id,
        x.id,
        waitingAt(workflow.steps.pause as string),
      );
    }
    const res = await stack.api.post(`/workflows/${workflow.id}/executions/cancel-all`, sk);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ cancelled: 3 });
    for (const x of executions) await waitForRunStatus(x.id, 'CANCELLED');
    const listed = await stack.api.get(`/workflows/${workflow.id}/executions?status=CANCELLED`, sk);
    expect(listed.body.total).toBe(3);
    expect(stack.smtp.messages.some((m) => emails.some((e) => m.to.includes(e)))).toBe(false);
    // With none active, the workflow may go.
    const deleted = await stack.api.delete(`/workflows/${workflow.id}`, sk);
    expect(deleted.status, deleted.text).toBe(204);
  });
});

describe('a run that opens with a DELAY', () => {
  it('takes its first steps at dispatch, starts when the delay ends, and runs the rest in one task', async () => {
    const { sk, templateId } = await sendingProject();
    const workflow = await buildWorkflow(stack.api, sk, {
      steps: {
        mark: { type: 'UPDATE_CONTACT', config: { data: { stage: 'welcomed' } } },
        pause: { type: 'DELAY', config: { amount: 2, unit: 'seconds' } },
        send: { type: 'SEND_EMAIL', config: { templateId } },
      },
      links: [
        ['mark', 'pause'],
        ['pause', 'send'],
      ],
    });
    const email = uniqueEmail('opening').toLowerCase();
    await track(stack.api, sk, email, 'signup');
    const waiting = await firstExecutionWaitingAt(stack.api, sk, workflow, 'pause');
    const contact = await stack.api.get(`/contacts/${waiting!.contactId}`, sk);
    expect(contact.body.data.stage).toBe('welcomed');
    // Its run exists (an operator sees it) while it waits. The dispatcher starts it just after
    // the steps it took at dispatch, so it may not exist yet the moment the execution waits.
    await eventually(async () => (await runStatus(waiting!.id)) !== 'NOT_STARTED', {
      what: `the run of ${waiting!.id} to be started`,
      timeoutMs: 20_000,
    });
    expect(['RUNNING', 'COMPLETED']).toContain(await runStatus(waiting!.id));

    const done = await waitForExecution(stack.api, sk, workflow.id, waiting!.id, ended);
    expect(done.status).toBe('COMPLETED');
    expect(done.steps.map((s: { type: string; status: string }) => [s.type, s.status])).toEqual([
      ['UPDATE_CONTACT', 'COMPLETED'],
      ['DELAY', 'COMPLETED'],
      ['SEND_EMAIL', 'COMPLETED'],
    ]);
    const pause = done.steps[1] as unknown as { startedAt: string; finishedAt: string };
    expect(Date.parse(pause.finishedAt) - Date.parse(pause.startedAt)).toBeGreaterThanOrEqual(1900);
    await expect
      .poll(() => stack.smtp.messages.filter((m) => m.to.includes(email)).length, {
        timeout: 15_000,
      })
      .toBe(1);

    // The run started when the delay ended (Temporal's start delay): one workflow task, no timer.
    const connection = await Connection.connect({ address: inject('stack').temporalAddress });
    try {
      const history = await new TemporalClient({ connection }).workflow
        .getHandle(`execution-${waiting!.id}`)
        .fetchHistory();
      const events = history.events ?? [];
      expect(events.filter((e) => e.workflowTaskCompletedEventAttributes)).toHaveLength(1);
      expect(events.filter((e) => e.timerStartedEventAttributes)).toHaveLength(0);
      expect(
        Number(
          history.events?.[0]?.workflowExecutionStartedEventAttributes?.firstWorkflowTaskBackoff
            ?.seconds ?? 0,
        ),
      ).toBeGreaterThanOrEqual(1);
    } finally {
      await connection.close();
    }
    await keepHistory('execution.opening-delay', `execution-${waiting!.id}`);
  });
});

describe('events reaching a run during its start delay', () => {
  it('keeps an event of the delay from ending the wait after it; one during the wait does', async () => {
    const { sk } = await sendingProject();
    const workflow = await buildWorkflow(stack.api, sk, {
      steps: {
        pause: { type: 'DELAY', config: { amount: 2, unit: 'seconds' } },
        wait: { type: 'WAIT_FOR_EVENT', config: { eventName: 'purchase', timeoutSeconds: 30 } },
        bought: { type: 'UPDATE_CONTACT', config: { data: { stage: 'customer' } } },
        lapsed: { type: 'UPDATE_CONTACT', config: { data: { stage: 'lapsed' } } },
      },
      links: [
        ['pause', 'wait'],
        ['wait', 'bought', 'event'],
        ['wait', 'lapsed', 'timeout'],
      ],
    });
    const email = uniqueEmail('delayed').toLowerCase();
    await track(stack.api, sk, email, 'signup');
    const execution = await firstExecutionWaitingAt(stack.api, sk, workflow, 'pause');
    // Signalled while the run waits for its start: received, but from before the wait began.
    const early = await track(stack.api, sk, email, 'purchase', { early: true });
    await waitForExecution(
      stack.api,
      sk,
      workflow.id,
      execution!.id,
      waitingAt(workflow.steps.wait as string),
    );
    // Once the run has taken the early event in (a workflow task done since its signal), it has
    // decided about it, and still waits.
    await signalTaken(`execution-${execution!.id}`, 'executionEvent', early.event);
    const still = await stack.api.get(`/workflows/${workflow.id}/executions/${execution!.id}`, sk);
    expect(still.body.status).toBe('WAITING');
    expect(still.body.currentStepId).toBe(workflow.steps.wait);

    await track(stack.api, sk, email, 'purchase', { late: true });
    const done = await waitForExecution(stack.api, sk, workflow.id, execution!.id, ended);
    expect(done.status).toBe('COMPLETED');
    expect(done.context).toEqual({ purchase: { late: true } });
    const contact = await stack.api.get(`/contacts/${done.contactId}`, sk);
    expect(contact.body.data.stage).toBe('customer');
  });
});

describe('CONDITION on the trigger event, UPDATE_CONTACT of the subscription', () => {
  it('reads event.* from the trigger event, and an unsubscribe records its event', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, sk, {
      triggerEvent: 'order',
      allowReentry: true,
      steps: {
        big: {
          type: 'CONDITION',
          config: { field: 'event.total', operator: 'greaterThan', value: 100 },
        },
        vip: { type: 'UPDATE_CONTACT', config: { data: { tier: 'vip' }, subscribed: false } },
        plain: { type: 'UPDATE_CONTACT', config: { data: { tier: 'plain' } } },
      },
      links: [
        ['big', 'vip', 'yes'],
        ['big', 'plain', 'no'],
      ],
    });
    const email = uniqueEmail('order').toLowerCase();
    // A one-off value: it is the event's data, never the contact's.
    await track(stack.api, sk, email, 'order', { total: { value: 150, persistent: false } });
    const [execution] = await waitForExecutions(stack.api, sk, workflow.id);
    const done = await waitForExecution(stack.api, sk, workflow.id, execution!.id, ended);
    expect(done.steps.map((s) => [s.type, s.result])).toEqual([
      ['CONDITION', { matched: true }],
      ['UPDATE_CONTACT', { subscribed: false }],
    ]);
    const contact = await stack.api.get(`/contacts/${done.contactId}`, sk);
    expect(contact.body).toMatchObject({ subscribed: false, data: { tier: 'vip' } });
    expect(contact.body.data.total).toBeUndefined();
    const events = await stack.api.get(`/events/contact/${done.contactId}`, sk);
    const unsubscribed = events.body.data.filter(
      (e: { name: string }) => e.name === 'contact.unsubscribed',
    );
    expect(unsubscribed).toHaveLength(1);
    expect(unsubscribed[0].data).toEqual({ source: 'workflow' });

    await track(stack.api, sk, email, 'order', { total: { value: 20, persistent: false } });
    const executions = await waitForExecutions(stack.api, sk, workflow.id, { count: 2 });
    const second = await waitForExecution(stack.api, sk, workflow.id, executions[0]!.id, ended);
    expect(second.steps[0]?.result).toEqual({ matched: false });
  });
});

describe('deleting what an execution belongs to', () => {
  it('cancels the durable run of a waiting execution whose contact is deleted', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, sk, {
      steps: {
        wait: { type: 'WAIT_FOR_EVENT', config: { eventName: 'never' } },
        end: { type: 'EXIT' },
      },
      links: [['wait', 'end', 'event']],
    });
    await track(stack.api, sk, uniqueEmail('gone'), 'signup');
    const execution = await firstExecutionWaitingAt(stack.api, sk, workflow, 'wait');
    const deleted = await stack.api.delete(`/contacts/${execution!.contactId}`, sk);
    expect(deleted.status, deleted.text).toBe(204);
    // A wait without a timeout would otherwise stay open in Temporal for ever.
    await waitForRunStatus(execution!.id, 'CANCELLED');
    const gone = await stack.api.get(`/workflows/${workflow.id}/executions/${execution!.id}`, sk);
    expect(gone.status).toBe(404);
  });
});

describe('manual start', () => {
  it('starts for a contact by email with a context its CONDITION reads; reentry refused', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, sk, {
      steps: {
        check: {
          type: 'CONDITION',
          config: { field: 'context.coupon', operator: 'equals', value: 'VIP' },
        },
        vip: { type: 'UPDATE_CONTACT', config: { data: { coupon: 'vip' } } },
        plain: { type: 'UPDATE_CONTACT', config: { data: { coupon: 'none' } } },
      },
      links: [
        ['check', 'vip', 'yes'],
        ['check', 'plain', 'no'],
      ],
      patch: { triggerType: 'MANUAL' },
    });
    const email = uniqueEmail('manual').toLowerCase();
    const contact = await stack.api.post('/contacts', { ...sk, body: { email } });
    const started = await stack.api.post(`/workflows/${workflow.id}/executions`, {
      ...sk,
      body: { email, context: { coupon: 'VIP' } },
    });
    expect(started.status, started.text).toBe(201);
    expect(started.body).toMatchObject({
      status: 'RUNNING',
      contactId: contact.body.id,
      context: { coupon: 'VIP' },
      temporalWorkflowId: `execution-${started.body.id}`,
    });
    const done = await waitForExecution(stack.api, sk, workflow.id, started.body.id, ended);
    expect(done.steps[0]?.result).toEqual({ matched: true });
    const after = await stack.api.get(`/contacts/${contact.body.id}`, sk);
    expect(after.body.data.coupon).toBe('vip');

    const twice = await stack.api.post(`/workflows/${workflow.id}/executions`, {
      ...sk,
      body: { contactId: contact.body.id },
    });
    expect(twice.status).toBe(409);
    const nobody = await stack.api.post(`/workflows/${workflow.id}/executions`, {
      ...sk,
      body: { email: uniqueEmail('nobody') },
    });
    expect(nobody.status).toBe(404);
    const both = await stack.api.post(`/workflows/${workflow.id}/executions`, {
      ...sk,
      body: { email, contactId: contact.body.id },
    });
    expect(both.status).toBe(422);
  });
});

describe('a long wait with many events', () => {
  it('continues as new before its history grows long, and still resumes on its event', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, sk, {
      steps: {
        wait: { type: 'WAIT_FOR_EVENT', config: { eventName: 'purchase', timeoutSeconds: 600 } },
        bought: { type: 'UPDATE_CONTACT', config: { data: { bought: true } } },
        gaveUp: { type: 'EXIT' },
      },
      links: [
        ['wait', 'bought', 'event'],
        ['wait', 'gaveUp', 'timeout'],
      ],
    });
    const email = uniqueEmail('long').toLowerCase();
    await track(stack.api, sk, email, 'signup');
    const execution = await firstExecutionWaitingAt(stack.api, sk, workflow, 'wait');

    // Events it does not wait for (an operator's test signals), until the run hands over.
    const connection = await Connection.connect({ address: inject('stack').temporalAddress });
    try {
      const handle = new TemporalClient({ connection }).workflow.getHandle(
        `execution-${execution!.id}`,
      );
      const firstRun = (await handle.describe()).runId;
      const handedOver = async () => (await handle.describe()).runId !== firstRun;
      // Signals go in faster than a busy worker takes them: past the history limit (1,000
      // events, one per signal), stop sending and give the run time to catch up and hand over.
      for (let sent = 0; sent < 1500 && !(await handedOver()); sent += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            handle.signal('executionEvent', {
              id: randomUUID(),
              name: 'noise',
              data: { i: sent + i },
              createdAt: new Date().toISOString(),
            }),
          ),
        );
      }
      await eventually(handedOver, {
        what: 'the run to continue as new',
        timeoutMs: 90_000,
        intervalMs: 250,
      });
      await track(stack.api, sk, email, 'purchase', { total: 9 });
      const done = await waitForExecution(stack.api, sk, workflow.id, execution!.id, ended);
      expect(done.status).toBe('COMPLETED');
      expect(done.steps.map((s) => [s.type, s.status])).toEqual([
        ['WAIT_FOR_EVENT', 'COMPLETED'],
        ['UPDATE_CONTACT', 'COMPLETED'],
      ]);
      expect(done.context).toEqual({ purchase: { total: 9 } });
      await keepHistory('execution.continued-as-new', `execution-${execution!.id}`, firstRun);
    } finally {
      await connection.close();
    }
  }, 150_000);
});
