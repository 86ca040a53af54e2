import { expect } from 'vitest';
import { eventually } from './eventually.js';
import type { Client } from './http.js';

type Sk = { key: string };

export interface StepSpec {
  type: string;
  config?: Record<string, unknown>;
  name?: string;
}

/** [from, to, branch?] by the steps' keys. */
export type LinkSpec = [string, string, string?];

export interface BuiltWorkflow {
  id: string;
  /** Step ids by the keys the spec gave them. */
  steps: Record<string, string>;
}

/**
 * Creates a workflow over HTTP: its steps, its links, then (unless `enabled: false`) enables it
 * with `patch` applied in the same request (a trigger, allowReentry).
 */
export async function buildWorkflow(
  api: Client,
  sk: Sk,
  {
    name = `Workflow ${Math.random().toString(36).slice(2, 8)}`,
    triggerEvent = 'signup',
    allowReentry,
    steps,
    links = [],
    enabled = true,
    patch = {},
  }: {
    name?: string;
    triggerEvent?: string;
    allowReentry?: boolean;
    steps: Record<string, StepSpec>;
    links?: LinkSpec[];
    enabled?: boolean;
    patch?: Record<string, unknown>;
  },
): Promise<BuiltWorkflow> {
  const created = await api.post('/workflows', {
    ...sk,
    body: { name, triggerEvent, ...(allowReentry === undefined ? {} : { allowReentry }) },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  const ids: Record<string, string> = {};
  for (const [key, spec] of Object.entries(steps)) {
    const res = await api.post(`/workflows/${id}/steps`, {
      ...sk,
      body: { type: spec.type, name: spec.name ?? key, config: spec.config ?? {} },
    });
    expect(res.status, res.text).toBe(201);
    ids[key] = res.body.id;
  }
  for (const [from, to, branch] of links) {
    const res = await api.post(`/workflows/${id}/transitions`, {
      ...sk,
      body: { fromStepId: ids[from], toStepId: ids[to], ...(branch ? { branch } : {}) },
    });
    expect(res.status, res.text).toBe(201);
  }
  if (enabled || Object.keys(patch).length > 0) {
    const res = await api.patch(`/workflows/${id}`, {
      ...sk,
      body: { ...patch, ...(enabled ? { enabled: true } : {}) },
    });
    expect(res.status, res.text).toBe(200);
  }
  return { id, steps: ids };
}

export interface ExecutionBody {
  id: string;
  status: string;
  contactId: string;
  currentStepId: string | null;
  context: Record<string, unknown>;
  steps: {
    seq: number;
    stepId: string;
    type: string;
    status: string;
    result: any;
    error: string | null;
  }[];
  [key: string]: unknown;
}

/** Polls the workflow's executions until `count` exist (20 s at most), newest first. */
export async function waitForExecutions(
  api: Client,
  sk: Sk,
  workflowId: string,
  { count = 1, timeoutMs = 20_000 }: { count?: number; timeoutMs?: number } = {},
): Promise<ExecutionBody[]> {
  let seen = 0;
  return eventually(
    async () => {
      const res = await api.get(`/workflows/${workflowId}/executions?limit=100`, sk);
      expect(res.status, res.text).toBe(200);
      seen = res.body.executions.length;
      return seen >= count && (res.body.executions as ExecutionBody[]);
    },
    { what: `${count} executions`, timeoutMs, describe: () => `${seen} executions` },
  );
}

/** Polls one execution until `done` holds for it (30 s at most); answers it with its steps. */
export async function waitForExecution(
  api: Client,
  sk: Sk,
  workflowId: string,
  executionId: string,
  done: (execution: ExecutionBody) => boolean,
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): Promise<ExecutionBody> {
  let last = '';
  return eventually(
    async () => {
      const res = await api.get(`/workflows/${workflowId}/executions/${executionId}`, sk);
      expect(res.status, res.text).toBe(200);
      last = res.text;
      return done(res.body) && (res.body as ExecutionBody);
    },
    { what: `execution ${executionId}`, timeoutMs, describe: () => last },
  );
}

export const ended = (x: ExecutionBody): boolean => !['RUNNING', 'WAITING'].includes(x.status);

/** Waiting on a step: WAITING with that step current. */
export const waitingAt =
  (stepId: string) =>
  (x: ExecutionBody): boolean =>
    x.status === 'WAITING' && x.currentStepId === stepId;

export async function track(
  api: Client,
  sk: Sk,
  email: string,
  event: string,
  data: Record<string, unknown> = {},
): Promise<{ contact: string; event: string }> {
  const res = await api.post('/v1/track', { ...sk, body: { email, event, data } });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** The workflow's first execution, once it is WAITING at the step the spec named `stepKey`. */
export async function firstExecutionWaitingAt(
  api: Client,
  sk: Sk,
  workflow: BuiltWorkflow,
  stepKey: string,
): Promise<ExecutionBody> {
  const [execution] = await waitForExecutions(api, sk, workflow.id);
  return waitForExecution(
    api,
    sk,
    workflow.id,
    (execution as ExecutionBody).id,
    waitingAt(workflow.steps[stepKey] as string),
  );
}
