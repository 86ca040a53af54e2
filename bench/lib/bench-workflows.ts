// Workflows the benches create through the API: bench:automation's measured ones and the idle
// ones that put the automation outbox's matching in bench:track's path.
import { json, type BenchStack } from './stack.js';

/** One API call with the project's key; throws on a non-2xx answer. */
export async function api(
  stack: BenchStack,
  key: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await json(`${stack.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** An enabled workflow of `steps` linked in order, triggered by `event`. */
export async function workflow(
  stack: BenchStack,
  key: string,
  { event, steps }: { event: string; steps: { type: string; config: unknown; branch?: string }[] },
): Promise<string> {
  const created = await api(stack, key, 'POST', '/workflows', { name: event, triggerEvent: event });
  const ids: string[] = [];
  for (const step of steps) {
    ids.push((await api(stack, key, 'POST', `/workflows/${created.id}/steps`, step)).id);
  }
  for (let i = 1; i < ids.length; i += 1) {
    await api(stack, key, 'POST', `/workflows/${created.id}/transitions`, {
      fromStepId: ids[i - 1],
      toStepId: ids[i],
      branch: steps[i - 1]?.branch,
    });
  }
  await api(stack, key, 'PATCH', `/workflows/${created.id}`, { enabled: true });
  return created.id;
}

/** `count` enabled workflows whose trigger events are never tracked (`never-<i>`). */
export async function idleWorkflows(stack: BenchStack, key: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    await workflow(stack, key, {
      event: `never-${i}`,
      steps: [{ type: 'UPDATE_CONTACT', config: { data: { never: i } } }],
    });
  }
}
