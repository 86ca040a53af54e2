import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';
import {
  buildWorkflow,
  firstExecutionWaitingAt,
  track,
  waitForExecutions,
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

async function createWorkflow(sk: Sk, body: Record<string, unknown> = {}) {
  const res = await stack.api.post('/workflows', {
    ...sk,
    body: { name: 'Onboarding', triggerEvent: 'signup', ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function addStep(sk: Sk, workflowId: string, type: string, config: unknown = {}) {
  return stack.api.post(`/workflows/${workflowId}/steps`, { ...sk, body: { type, config } });
}

async function link(
  sk: Sk,
  workflowId: string,
  fromStepId: string,
  toStepId: string,
  branch?: string,
) {
  return stack.api.post(`/workflows/${workflowId}/transitions`, {
    ...sk,
    body: { fromStepId, toStepId, ...(branch ? { branch } : {}) },
  });
}

/** A template of the project, sent from a domain verified for it. */
async function template(sk: Sk): Promise<string> {
  const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('wf'));
  const res = await stack.api.post('/templates', {
    ...sk,
    body: { name: 'T', subject: 'S', body: '<p>B</p>', from: `hello@${domain}` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const fieldsOf = (res: { body: { error: { errors: { field: string; code: string }[] } } }) =>
  res.body.error.errors.map((e) => [e.field, e.code]);

describe('workflow definitions', () => {
  it('creates EVENT-triggered and disabled, lists, reads, renames and deletes', async () => {
    const { sk } = await projectFixture(stack.api);
    const created = await createWorkflow(sk, { description: 'Welcome new users' });
    expect(created).toMatchObject({
      name: 'Onboarding',
      description: 'Welcome new users',
      triggerType: 'EVENT',
      triggerConfig: { eventName: 'signup' },
      triggerEvent: 'signup',
      eventName: 'signup',
      enabled: false,
      allowReentry: false,
      steps: [],
      transitions: [],
      executions: { RUNNING: 0, WAITING: 0, COMPLETED: 0, EXITED: 0, FAILED: 0, CANCELLED: 0 },
    });
    expect(created.problems).toEqual([
      expect.objectContaining({ field: 'steps', code: 'no_steps' }),
    ]);
    // The alias, and Plunk's spelling of an email event.
    const aliased = await createWorkflow(sk, { triggerEvent: undefined, eventName: 'email.open' });
    expect(aliased.triggerEvent).toBe('email.opened');

    const list = await stack.api.get('/workflows?pageSize=1', sk);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 2, page: 1, pageSize: 1, totalPages: 2 });
    expect(list.body.workflows[0].id).toBe(aliased.id);
    const searched = await stack.api.get('/workflows?search=onboard&enabled=false', sk);
    expect(searched.body.total).toBe(2);

    const renamed = await stack.api.patch(`/workflows/${created.id}`, {
      ...sk,
      body: { name: 'Welcome', allowReentry: true, description: null },
    });
    expect(renamed.body).toMatchObject({ name: 'Welcome', allowReentry: true, description: null });
    const deleted = await stack.api.delete(`/workflows/${created.id}`, sk);
    expect(deleted.status).toBe(204);
    expect((await stack.api.get(`/workflows/${created.id}`, sk)).status).toBe(404);
  });

  it('refuses a create without its trigger event, and bad bodies', async () => {
    const { sk, project } = await projectFixture(stack.api);
    const missing = await stack.api.post('/workflows', { ...sk, body: { name: 'X' } });
    expect(missing.status).toBe(422);
    expect(fieldsOf(missing)).toEqual([['triggerEvent', 'required']]);
    const blank = await stack.api.post('/workflows', {
      ...sk,
      body: { name: ' ', triggerEvent: 'a' },
    });
    expect(blank.status).toBe(422);
    const pk = await stack.api.get('/workflows', { key: project.publicKey });
    expect(pk.status).toBe(401);
  });

  it('hides other projects’ workflows, steps, transitions and executions (404)', async () => {
    const mine = await projectFixture(stack.api);
    const theirs = await projectFixture(stack.api);
    const workflow = await createWorkflow(mine.sk);
    const a = await addStep(mine.sk, workflow.id, 'DELAY', { amount: 1, unit: 'seconds' });
    const b = await addStep(mine.sk, workflow.id, 'EXIT');
    const t = await link(mine.sk, workflow.id, a.body.id, b.body.id);
    const id = workflow.id;
    const execution = randomUUID();
    const attempts = [
      stack.api.get(`/workflows/${id}`, theirs.sk),
      stack.api.patch(`/workflows/${id}`, { ...theirs.sk, body: { name: 'x' } }),
      stack.api.delete(`/workflows/${id}`, theirs.sk),
      stack.api.post(`/workflows/${id}/steps`, {
        ...theirs.sk,
        body: { type: 'EXIT', config: {} },
      }),
      stack.api.patch(`/workflows/${id}/steps/${a.body.id}`, { ...theirs.sk, body: { name: 'x' } }),
      stack.api.delete(`/workflows/${id}/steps/${a.body.id}`, theirs.sk),
      stack.api.post(`/workflows/${id}/transitions`, {
        ...theirs.sk,
        body: { fromStepId: b.body.id, toStepId: a.body.id },
      }),
      stack.api.delete(`/workflows/${id}/transitions/${t.body.id}`, theirs.sk),
      stack.api.post(`/workflows/${id}/executions`, {
        ...theirs.sk,
        body: { email: 'a@example.com' },
      }),
      stack.api.get(`/workflows/${id}/executions`, theirs.sk),
      stack.api.get(`/workflows/${id}/executions/${execution}`, theirs.sk),
      stack.api.delete(`/workflows/${id}/executions/${execution}`, theirs.sk),
      stack.api.post(`/workflows/${id}/executions/cancel-all`, theirs.sk),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status, res.text).toBe(404);
    const still = await stack.api.get(`/workflows/${id}`, mine.sk);
    expect(still.body.steps).toHaveLength(2);
    expect(still.body.transitions).toHaveLength(1);
  });
});

describe('steps', () => {
  it('adds a step of each of the seven types, with its config in canonical form', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await createWorkflow(sk);
    const templateId = await template(sk);
    const configs: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['SEND_EMAIL', { templateId }, { templateId }],
      ['DELAY', { amount: 2, unit: 'hours' }, { amount: 2, unit: 'hours' }],
      [
        'WAIT_FOR_EVENT',
        { eventName: 'email.click', timeoutSeconds: 60 },
        { eventName: 'email.clicked', timeoutSeconds: 60 },
      ],
      [
        'CONDITION',
        { field: 'event.amount', operator: 'greaterThan', value: '10' },
        { field: 'event.amount', operator: 'greaterThan', value: 10 },
      ],
      [
        'WEBHOOK',
        { url: 'https://hooks.example.com/x' },
        { url: 'https://hooks.example.com/x', method: 'POST' },
      ],
      [
        'UPDATE_CONTACT',
        { data: { stage: 'trial', old: null }, subscribed: false },
        { data: { stage: 'trial', old: null }, subscribed: false },
      ],
      ['EXIT', { reason: 'done' }, { reason: 'done' }],
    ];
    for (const [type, config, stored] of configs) {
      const res = await stack.api.post(`/workflows/${workflow.id}/steps`, {
        ...sk,
        body: { type, name: `A ${type}`, config, position: { x: 10, y: 20 } },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        type,
        name: `A ${type}`,
        config: stored,
        position: { x: 10, y: 20 },
      });
    }
    const read = await stack.api.get(`/workflows/${workflow.id}`, sk);
    expect(read.body.steps.map((s: { type: string }) => s.type)).toEqual(configs.map(([t]) => t));
  });

  it('refuses a config that does not fit its type, naming the field', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await createWorkflow(sk);
    const cases: [string, unknown, [string, string][]][] = [
      ['SEND_EMAIL', { templateId: 'nope' }, [['config.templateId', 'invalid_string']]],
      ['SEND_EMAIL', { templateId: randomUUID(), extra: 1 }, [['config', 'unrecognized_keys']]],
      ['DELAY', { amount: 1, unit: 'weeks' }, [['config.unit', 'invalid_value']]],
      ['DELAY', { amount: 366, unit: 'days' }, [['config.amount', 'too_big']]],
      ['DELAY', { amount: 0, unit: 'days' }, [['config.amount', 'too_small']]],
      ['WAIT_FOR_EVENT', { timeoutSeconds: 5 }, [['config.eventName', 'required']]],
      [
        'CONDITION',
        { field: 'data.plan', operator: 'triggered' },
        [['config.operator', 'invalid_operator']],
      ],
      [
        'CONDITION',
        { field: `segment.${randomUUID()}`, operator: 'memberOf' },
        [['config.field', 'invalid_field']],
      ],
      ['WEBHOOK', { url: 'ftp://files.example.com/' }, [['config.url', 'invalid_url']]],
      [
        'WEBHOOK',
        { url: 'https://x.test/', headers: { Host: 'evil' } },
        [['config.headers.Host', 'reserved_header']],
      ],
      [
        'WEBHOOK',
        { url: 'https://x.test/', headers: { 'X-A': 'a\r\nX-B: b' } },
        [['config.headers.X-A', 'invalid_header']],
      ],
      ['WEBHOOK', { url: 'https://x.test/{{ constructor }}' }, [['config.url', 'template_unsafe']]],
      [
        'WEBHOOK',
        { url: 'https://x.test/', body: { a: '{{ unclosed' } },
        [['config.body.a', 'template_syntax']],
      ],
      ['UPDATE_CONTACT', {}, [['config', 'required']]],
      ['EXIT', { reason: 5 }, [['config.reason', 'invalid_type']]],
    ];
    for (const [type, config, expected] of cases) {
      const res = await addStep(sk, workflow.id, type, config);
      expect(res.status, `${type} ${JSON.stringify(config)}`).toBe(422);
      expect(fieldsOf(res), `${type} ${JSON.stringify(config)}`).toEqual(expected);
    }
    const unknownType = await addStep(sk, workflow.id, 'TRIGGER');
    expect(unknownType.status).toBe(422);
    const read = await stack.api.get(`/workflows/${workflow.id}`, sk);
    expect(read.body.steps).toEqual([]);
  });

  it('holds each config limit at its edge', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await createWorkflow(sk);
    const headers = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`X-H${i}`, 'v']));
    const edges: [string, unknown, unknown, string][] = [
      ['DELAY', { amount: 365, unit: 'days' }, { amount: 366, unit: 'days' }, 'config.amount'],
      [
        'DELAY',
        { amount: 31_536_000, unit: 'seconds' },
        { amount: 31_536_001, unit: 'seconds' },
        'config.amount',
      ],
      [
        'WAIT_FOR_EVENT',
        { eventName: 'x', timeoutSeconds: 31_536_000 },
        { eventName: 'x', timeoutSeconds: 31_536_001 },
        'config.timeoutSeconds',
      ],
      [
        'WAIT_FOR_EVENT',
        { eventName: 'e'.repeat(255) },
        { eventName: 'e'.repeat(256) },
        'config.eventName',
      ],
      [
        'WEBHOOK',
        { url: 'https://x.test/', headers: headers(20) },
        { url: 'https://x.test/', headers: headers(21) },
        'config.headers',
      ],
      ['EXIT', { reason: 'r'.repeat(500) }, { reason: 'r'.repeat(501) }, 'config.reason'],
    ];
    for (const [type, fits, over, field] of edges) {
      const ok = await addStep(sk, workflow.id, type, fits);
      expect(ok.status, `${type} ${field} at the limit`).toBe(201);
      const refused = await addStep(sk, workflow.id, type, over);
      expect(refused.status, `${type} ${field} past the limit`).toBe(422);
      expect(refused.body.error.errors[0].field).toBe(field);
    }
  });

  it('keeps at most 100 steps in a workflow', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await createWorkflow(sk);
    for (let i = 0; i < 100; i += 1) {
      const res = await addStep(sk, workflow.id, 'EXIT');
      expect(res.status, res.text).toBe(201);
    }
    const over = await addStep(sk, workflow.id, 'EXIT');
    expect(over.status).toBe(422);
    expect(fieldsOf(over)).toEqual([['type', 'too_many_steps']]);
  });

  it('deletes a step; with splice its parent leads to its child', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await createWorkflow(sk);
    const a = (await addStep(sk, workflow.id, 'DELAY', { amount: 1, unit: 'seconds' })).body.id;
    const b = (await addStep(sk, workflow.id, 'DELAY', { amount: 2, unit: 'seconds' })).body.id;
    const c = (await addStep(sk, workflow.id, 'EXIT')).body.id;
    await link(sk, workflow.id, a, b);
    await link(sk, workflow.id, b, c);
    const spliced = await stack.api.delete(`/workflows/${workflow.id}/steps/${b}?splice=true`, sk);
    expect(spliced.status, spliced.text).toBe(204);
    let read = await stack.api.get(`/workflows/${workflow.id}`, sk);
    expect(read.body.transitions.map((t: any) => [t.fromStepId, t.toStepId])).toEqual([[a, c]]);

    const parent = (await addStep(sk, workflow.id, 'DELAY', { amount: 3, unit: 'seconds' })).body
      .id;
    const cond = (
      await addStep(sk, workflow.id, 'CONDITION', { field: 'email', operator: 'exists' })
    ).body.id;
    const yes = (await addStep(sk, workflow.id, 'EXIT')).body.id;
    const no = (await addStep(sk, workflow.id, 'EXIT')).body.id;
    await link(sk, workflow.id, parent, cond);
    await link(sk, workflow.id, cond, yes, 'yes');
    await link(sk, workflow.id, cond, no, 'no');
    const branching = await stack.api.delete(
      `/workflows/${workflow.id}/steps/${cond}?splice=true`,
      sk,
    );
    expect(branching.status).toBe(422);
    expect(fieldsOf(branching)).toEqual([['splice', 'cannot_splice']]);
    const plain = await stack.api.delete(`/workflows/${workflow.id}/steps/${cond}`, sk);
    expect(plain.status).toBe(204);
    read = await stack.api.get(`/workflows/${workflow.id}`, sk);
    expect(read.body.transitions).toHaveLength(1);
    expect((await stack.api.delete(`/workflows/${workflow.id}/steps/${cond}`, sk)).status).toBe(
      404,
    );
  });
});

describe('transitions', () => {
  it('links steps under the rules: no self link, no cycle, the right branches, one per branch', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await createWorkflow(sk);
    const wait = (
      await addStep(sk, workflow.id, 'WAIT_FOR_EVENT', { eventName: 'purchase', timeoutSeconds: 5 })
    ).body.id;
    const cond = (
      await addStep(sk, workflow.id, 'CONDITION', { field: 'data.plan', operator: 'exists' })
    ).body.id;
    const done = (await addStep(sk, workflow.id, 'UPDATE_CONTACT', { data: { a: 1 } })).body.id;
    const exit = (await addStep(sk, workflow.id, 'EXIT')).body.id;

    const ok = await link(sk, workflow.id, wait, cond, 'event');
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({ fromStepId: wait, toStepId: cond, branch: 'event' });
    expect((await link(sk, workflow.id, wait, exit, 'timeout')).status).toBe(201);
    expect((await link(sk, workflow.id, cond, done, 'yes')).status).toBe(201);
    expect((await link(sk, workflow.id, cond, exit, 'no')).status).toBe(201);

    const refusals: [Promise<any>, [string, string][]][] = [
      [link(sk, workflow.id, done, done), [['toStepId', 'self_link']]],
      [link(sk, workflow.id, done, wait), [['toStepId', 'cycle']]],
      [link(sk, workflow.id, exit, done), [['fromStepId', 'exit_has_no_next']]],
      [link(sk, workflow.id, cond, done, 'yes'), [['branch', 'branch_taken']]],
      [link(sk, workflow.id, cond, done), [['branch', 'invalid_branch']]],
      [link(sk, workflow.id, cond, done, 'timeout'), [['branch', 'invalid_branch']]],
      [link(sk, workflow.id, done, exit, 'yes'), [['branch', 'invalid_branch']]],
      [link(sk, workflow.id, done, randomUUID()), [['toStepId', 'not_found']]],
    ];
    for (const [attempt, expected] of refusals) {
      const res = await attempt;
      expect(res.status, res.text).toBe(422);
      expect(fieldsOf(res)).toEqual(expected);
    }
    const bad = await stack.api.post(`/workflows/${workflow.id}/transitions`, {
      ...sk,
      body: { fromStepId: done, toStepId: exit, branch: 'maybe' },
    });
    expect(bad.status).toBe(422);

    const read = await stack.api.get(`/workflows/${workflow.id}`, sk);
    expect(read.body.transitions).toHaveLength(4);
    const removed = await stack.api.delete(
      `/workflows/${workflow.id}/transitions/${ok.body.id}`,
      sk,
    );
    expect(removed.status).toBe(204);
    const again = await stack.api.delete(`/workflows/${workflow.id}/transitions/${ok.body.id}`, sk);
    expect(again.status).toBe(404);
  });
});

describe('enabling', () => {
  it('refuses a graph that cannot run, naming the step at fault', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await createWorkflow(sk);
    const enable = () =>
      stack.api.patch(`/workflows/${workflow.id}`, { ...sk, body: { enabled: true } });

    const empty = await enable();
    expect(empty.status).toBe(422);
    expect(fieldsOf(empty)).toEqual([['steps', 'no_steps']]);

    const send = (await addStep(sk, workflow.id, 'SEND_EMAIL', { templateId: randomUUID() })).body
      .id;
    const cond = (
      await addStep(sk, workflow.id, 'CONDITION', { field: 'email', operator: 'exists' })
    ).body.id;
    const exit = (await addStep(sk, workflow.id, 'EXIT')).body.id;
    await link(sk, workflow.id, send, cond);
    await link(sk, workflow.id, cond, exit, 'yes');
    const broken = await enable();
    expect(broken.status).toBe(422);
    expect(fieldsOf(broken)).toEqual([
      [`steps.${send}`, 'unknown_template'],
      [`steps.${cond}`, 'dangling_branch'],
    ]);
    expect(broken.body.error.errors[1].message).toContain('"no"');

    await stack.api.patch(`/workflows/${workflow.id}/steps/${send}`, {
      ...sk,
      body: { config: { templateId: await template(sk) } },
    });
    await link(sk, workflow.id, cond, exit, 'no');
    const enabled = await enable();
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body).toMatchObject({ enabled: true, problems: [] });

    // While enabled, an edit on the way is kept and listed as a problem.
    const stray = await addStep(sk, workflow.id, 'EXIT');
    expect(stray.status).toBe(201);
    const read = await stack.api.get(`/workflows/${workflow.id}`, sk);
    expect(read.body.enabled).toBe(true);
    expect(read.body.problems.map((p: any) => p.code)).toEqual(['several_first_steps']);
  });

  it('checks a SEGMENT_ENTRY trigger: the segment must exist and track membership', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, sk, {
      enabled: false,
      steps: { end: { type: 'EXIT' } },
    });
    const unknown = await stack.api.patch(`/workflows/${workflow.id}`, {
      ...sk,
      body: { triggerType: 'SEGMENT_ENTRY', triggerConfig: { segmentId: randomUUID() } },
    });
    expect(unknown.status).toBe(422);
    expect(fieldsOf(unknown)).toEqual([['triggerConfig.segmentId', 'unknown_segment']]);
    const noSegment = await stack.api.patch(`/workflows/${workflow.id}`, {
      ...sk,
      body: { triggerType: 'SEGMENT_ENTRY' },
    });
    expect(fieldsOf(noSegment)).toEqual([['triggerConfig.segmentId', 'required']]);

    const segment = await stack.api.post('/segments', {
      ...sk,
      body: {
        name: 'Untracked',
        filters: { operator: 'AND', conditions: [{ field: 'email', operator: 'exists' }] },
      },
    });
    const set = await stack.api.patch(`/workflows/${workflow.id}`, {
      ...sk,
      body: { triggerType: 'SEGMENT_ENTRY', triggerConfig: { segmentId: segment.body.id } },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({
      triggerType: 'SEGMENT_ENTRY',
      triggerConfig: { segmentId: segment.body.id },
      triggerEvent: null,
    });
    const enable = await stack.api.patch(`/workflows/${workflow.id}`, {
      ...sk,
      body: { enabled: true },
    });
    expect(enable.status).toBe(422);
    expect(fieldsOf(enable)).toEqual([['triggerConfig.segmentId', 'segment_not_tracked']]);
    await stack.api.patch(`/segments/${segment.body.id}`, {
      ...sk,
      body: { trackMembership: true },
    });
    expect(
      (await stack.api.patch(`/workflows/${workflow.id}`, { ...sk, body: { enabled: true } }))
        .status,
    ).toBe(200);

    // The segment is in use now.
    const usage = await stack.api.delete(`/segments/${segment.body.id}`, sk);
    expect(usage.status).toBe(409);
    // Back to an event trigger by name.
    const back = await stack.api.patch(`/workflows/${workflow.id}`, {
      ...sk,
      body: { triggerType: 'EVENT', triggerConfig: { eventName: 'order.placed' } },
    });
    expect(back.body).toMatchObject({ triggerType: 'EVENT', triggerEvent: 'order.placed' });
    const manual = await stack.api.patch(`/workflows/${workflow.id}`, {
      ...sk,
      body: { triggerType: 'MANUAL' },
    });
    expect(manual.body).toMatchObject({
      triggerType: 'MANUAL',
      triggerConfig: {},
      triggerEvent: null,
    });
  });
});

describe('active executions', () => {
  it('PATCH of a step config is a 409 unless forced, and DELETE of the workflow a 409', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, sk, {
      steps: { pause: { type: 'DELAY', config: { amount: 60, unit: 'seconds' } } },
    });
    await track(stack.api, sk, uniqueEmail('active'), 'signup');
    await firstExecutionWaitingAt(stack.api, sk, workflow, 'pause');

    const path = `/workflows/${workflow.id}/steps/${workflow.steps.pause}`;
    const refused = await stack.api.patch(path, {
      ...sk,
      body: { config: { amount: 5, unit: 'seconds' } },
    });
    expect(refused.status).toBe(409);
    const renamed = await stack.api.patch(path, { ...sk, body: { name: 'Wait a bit' } });
    expect(renamed.status, 'a rename is not a config change').toBe(200);
    const forced = await stack.api.patch(`${path}?force=true`, {
      ...sk,
      body: { config: { amount: 5, unit: 'seconds' } },
    });
    expect(forced.status, forced.text).toBe(200);
    expect(forced.body.config).toEqual({ amount: 5, unit: 'seconds' });

    const busy = await stack.api.delete(`/workflows/${workflow.id}`, sk);
    expect(busy.status).toBe(409);
    const read = await stack.api.get(`/workflows/${workflow.id}`, sk);
    expect(read.body.executions.WAITING).toBe(1);
    const list = await stack.api.get(
      `/workflows/${workflow.id}/executions?status=waiting,running`,
      sk,
    );
    expect(list.body).toMatchObject({ total: 1, hasMore: false });
    const bad = await stack.api.get(`/workflows/${workflow.id}/executions?status=SLEEPING`, sk);
    expect(bad.status).toBe(422);

    await stack.api.post(`/workflows/${workflow.id}/executions/cancel-all`, sk);
    expect((await stack.api.delete(`/workflows/${workflow.id}`, sk)).status).toBe(204);
  });

  it('takes a manual start context of up to 32 KiB', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, sk, {
      allowReentry: true,
      steps: { end: { type: 'EXIT' } },
      patch: { triggerType: 'MANUAL' },
    });
    const email = uniqueEmail('ctx');
    await stack.api.post('/contacts', { ...sk, body: { email } });
    // {"k":"..."} is 8 bytes around the value.
    const context = (bytes: number) => ({ k: 'x'.repeat(bytes - 8) });
    const fits = await stack.api.post(`/workflows/${workflow.id}/executions`, {
      ...sk,
      body: { email, context: context(32 * 1024) },
    });
    expect(fits.status, fits.text).toBe(201);
    const over = await stack.api.post(`/workflows/${workflow.id}/executions`, {
      ...sk,
      body: { email, context: context(32 * 1024 + 1) },
    });
    expect(over.status).toBe(422);
    expect(fieldsOf(over)).toEqual([['context', 'too_big']]);
  });

  it('pages executions by cursor, newest first', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, sk, {
      allowReentry: true,
      steps: { end: { type: 'EXIT' } },
    });
    for (let i = 0; i < 3; i += 1) await track(stack.api, sk, uniqueEmail(`page${i}`), 'signup');
    const all = await waitForExecutions(stack.api, sk, workflow.id, { count: 3 });
    const first = await stack.api.get(`/workflows/${workflow.id}/executions?limit=2`, sk);
    expect(first.body).toMatchObject({ total: 3, hasMore: true });
    const second = await stack.api.get(
      `/workflows/${workflow.id}/executions?limit=2&cursor=${first.body.cursor}`,
      sk,
    );
    expect(second.body).toMatchObject({ total: 0, hasMore: false, cursor: null });
    expect([...first.body.executions, ...second.body.executions].map((x: any) => x.id)).toEqual(
      all.map((x) => x.id),
    );
  });
});

describe('fields and usage', () => {
  it('lists the fields a CONDITION can read', async () => {
    const { sk } = await projectFixture(stack.api);
    await track(stack.api, sk, uniqueEmail('fields'), 'purchase', { amount: 12, sku: 'A' });
    await stack.api.post('/contacts', {
      ...sk,
      body: { email: uniqueEmail('f2'), data: { plan: 'pro' } },
    });
    const res = await stack.api.get('/workflows/fields', sk);
    expect(res.status, res.text).toBe(200);
    const fields = res.body.fields.map((f: any) => f.field);
    expect(fields).toEqual(
      expect.arrayContaining(['email', 'subscribed', 'createdAt', 'data.plan', 'data.amount']),
    );
    expect(res.body.fields.find((f: any) => f.field === 'data.plan').type).toBe('string');
    expect(res.body.events).toEqual(
      expect.arrayContaining([{ name: 'purchase', fields: ['event.amount', 'event.sku'] }]),
    );
  });

  it('lists workflows in template, event, field and segment usage; a used template cannot go', async () => {
    const { sk } = await projectFixture(stack.api);
    const templateId = await template(sk);
    const workflow = await buildWorkflow(stack.api, sk, {
      enabled: false,
      triggerEvent: 'signup',
      steps: {
        send: { type: 'SEND_EMAIL', config: { templateId } },
        wait: { type: 'WAIT_FOR_EVENT', config: { eventName: 'email.open' } },
        check: { type: 'CONDITION', config: { field: 'data.plan.tier', operator: 'exists' } },
        set: { type: 'UPDATE_CONTACT', config: { data: { score: 1 } } },
      },
    });
    const templateUsage = await stack.api.get(`/templates/${templateId}/usage`, sk);
    expect(templateUsage.body.workflowSteps).toEqual([
      {
        workflowId: workflow.id,
        workflowName: expect.any(String),
        stepId: workflow.steps.send,
        stepName: 'send',
      },
    ]);
    expect((await stack.api.delete(`/templates/${templateId}`, sk)).status).toBe(409);

    const trigger = await stack.api.get('/events/signup/usage', sk);
    expect(trigger.body.workflows.map((w: any) => w.id)).toEqual([workflow.id]);
    const waited = await stack.api.get('/events/email.opened/usage', sk);
    expect(waited.body.workflows.map((w: any) => w.id)).toEqual([workflow.id]);
    expect((await stack.api.get('/events/other/usage', sk)).body.workflows).toEqual([]);

    for (const field of ['plan', 'score']) {
      const usage = await stack.api.get(`/contacts/fields/${field}/usage`, sk);
      expect(
        usage.body.workflows.map((w: any) => w.id),
        field,
      ).toEqual([workflow.id]);
    }
    expect((await stack.api.get('/contacts/fields/planet/usage', sk)).body.workflows).toEqual([]);
  });
});
