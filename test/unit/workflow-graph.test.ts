import { describe, expect, it } from 'vitest';
import {
  entrySteps,
  runProblems,
  spliceProblem,
  transitionProblem,
  waitedEventNames,
} from '../../domain/automation/graph.pure.js';
import {
  contextWithEvent,
  firstEventSince,
  firstStep,
  keepForLaterWaits,
  stepAfter,
} from '../../domain/automation/execution-path.pure.js';
import type { GraphStep, WorkflowGraph } from '../../domain/automation/step-config.pure.js';

const step = (
  id: string,
  type: GraphStep['type'],
  config: Record<string, unknown> = {},
): GraphStep => ({ id, type, name: null, config }) as GraphStep;

const link = (from: string, to: string, branch: string | null = null) => ({
  id: `${from}-${to}-${branch ?? ''}`,
  from,
  to,
  branch: branch as never,
});

// send -> wait -(event)-> check -(yes)-> done ; check -(no)-> out ; wait -(timeout)-> out
const graph: WorkflowGraph = {
  steps: [
    step('send', 'SEND_EMAIL', { templateId: 't1' }),
    step('wait', 'WAIT_FOR_EVENT', { eventName: 'purchase', timeoutSeconds: 5 }),
    step('check', 'CONDITION', { field: 'data.plan', operator: 'equals', value: 'pro' }),
    step('done', 'UPDATE_CONTACT', { data: { a: 1 } }),
    step('out', 'EXIT', {}),
  ],
  transitions: [
    link('send', 'wait'),
    link('wait', 'check', 'event'),
    link('wait', 'out', 'timeout'),
    link('check', 'done', 'yes'),
    link('check', 'out', 'no'),
  ],
};

describe('transition rules', () => {
  it('accepts a new link that keeps the graph acyclic', () => {
    expect(transitionProblem(graph, { from: 'done', to: 'out', branch: null })).toBeUndefined();
  });

  it.each([
    [{ from: 'send', to: 'send', branch: null }, 'self_link'],
    [{ from: 'out', to: 'send', branch: null }, 'exit_has_no_next'],
    [{ from: 'done', to: 'send', branch: null }, 'cycle'],
    [{ from: 'check', to: 'done', branch: null }, 'invalid_branch'],
    [{ from: 'check', to: 'done', branch: 'event' }, 'invalid_branch'],
    [{ from: 'send', to: 'done', branch: 'yes' }, 'invalid_branch'],
    [{ from: 'check', to: 'done', branch: 'yes' }, 'branch_taken'],
    [{ from: 'send', to: 'done', branch: null }, 'branch_taken'],
    [{ from: 'nope', to: 'done', branch: null }, 'not_found'],
    [{ from: 'send', to: 'nope', branch: null }, 'not_found'],
  ] as const)('refuses %o (%s)', (link, code) => {
    expect(transitionProblem(graph, link as never)?.code).toBe(code);
  });

  it('refuses to splice a step that branches', () => {
    expect(spliceProblem(graph, 'check')?.code).toBe('cannot_splice');
    expect(spliceProblem(graph, 'send')).toBeUndefined();
  });
});

describe('what makes a graph runnable', () => {
  const templates = new Set(['t1']);

  it('finds nothing wrong with a complete graph', () => {
    expect(runProblems(graph, { templateIds: templates })).toEqual([]);
    expect(entrySteps(graph).map((s) => s.id)).toEqual(['send']);
  });

  it('needs steps', () => {
    expect(runProblems({ steps: [], transitions: [] }, { templateIds: templates })).toEqual([
      expect.objectContaining({ field: 'steps', code: 'no_steps' }),
    ]);
  });

  it('names a dangling branch, an unknown template and a second first step', () => {
    const broken: WorkflowGraph = {
      steps: [...graph.steps, step('stray', 'DELAY', { amount: 1, unit: 'seconds' })],
      transitions: graph.transitions.filter((t) => t.branch !== 'no'),
    };
    const problems = runProblems(broken, { templateIds: new Set() });
    expect(problems.map((p) => [p.field, p.code])).toEqual([
      ['steps.stray', 'several_first_steps'],
      ['steps.send', 'unknown_template'],
      ['steps.check', 'dangling_branch'],
    ]);
  });

  it('asks a WAIT_FOR_EVENT without timeout for its event branch only', () => {
    const waitOnly: WorkflowGraph = {
      steps: [step('wait', 'WAIT_FOR_EVENT', { eventName: 'x' }), step('end', 'EXIT')],
      transitions: [link('wait', 'end', 'event')],
    };
    expect(runProblems(waitOnly, { templateIds: templates })).toEqual([]);
    const withTimeout = {
      ...waitOnly,
      transitions: [...waitOnly.transitions, link('wait', 'end', 'timeout')],
    };
    expect(runProblems(withTimeout, { templateIds: templates })[0]?.code).toBe(
      'timeout_without_timeout',
    );
  });

  it('lists the events the graph waits for', () => {
    expect(waitedEventNames(graph)).toEqual(['purchase']);
  });
});

describe('the interpreter', () => {
  it('walks from the entry step along branches to the end', () => {
    const first = firstStep(graph) as GraphStep;
    expect(first.id).toBe('send');
    const wait = stepAfter(graph, first, null) as GraphStep;
    expect(wait.id).toBe('wait');
    expect(stepAfter(graph, wait, 'timeout')?.id).toBe('out');
    const check = stepAfter(graph, wait, 'event') as GraphStep;
    expect(stepAfter(graph, check, 'yes')?.id).toBe('done');
    expect(stepAfter(graph, stepAfter(graph, check, 'yes') as GraphStep, null)).toBeUndefined();
  });

  const event = (id: string, name: string, createdAt: string) => ({
    id,
    name,
    data: { id },
    createdAt,
  });

  it('takes only an event recorded at or after the wait began, first come first', () => {
    const inbox = [
      event('a', 'purchase', '2026-01-01T00:00:00.000Z'),
      event('b', 'other', '2026-01-01T00:00:02.000Z'),
      event('c', 'purchase', '2026-01-01T00:00:01.000Z'),
      event('d', 'purchase', '2026-01-01T00:00:03.000Z'),
    ];
    const since = '2026-01-01T00:00:01.000Z';
    expect(firstEventSince(inbox, { name: 'purchase', since })?.id).toBe('c');
    expect(firstEventSince(inbox, { name: 'purchase', since: '2026-01-01T00:00:04.000Z' })).toBe(
      undefined,
    );
    expect(keepForLaterWaits(inbox, { since, used: 'c' }).map((e) => e.id)).toEqual(['b', 'd']);
  });

  it('keeps an awaited event under its name in the context, dotted names as paths', () => {
    const context = { coupon: 'X', order: { id: 1 } };
    expect(contextWithEvent(context, event('e', 'purchase', '2026-01-01T00:00:00Z'))).toEqual({
      coupon: 'X',
      order: { id: 1 },
      purchase: { id: 'e' },
    });
    expect(
      contextWithEvent(context, event('f', 'order.completed', '2026-01-01T00:00:00Z')),
    ).toEqual({
      coupon: 'X',
      order: { id: 1, completed: { id: 'f' } },
    });
    expect(context).toEqual({ coupon: 'X', order: { id: 1 } });
  });
});
