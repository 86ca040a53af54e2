import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, signUp, type TestProject } from '../helpers/factories.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
let project: TestProject;
beforeAll(async () => {
  stack = await startStack();
  project = await createProject(stack.api, await signUp(stack.api, 'subscribed-filter'));
  for (const [email, subscribed] of [
    ['in-1@filter.example', true],
    ['in-2@filter.example', true],
    ['out-1@filter.example', false],
    ['in-3@other.example', true],
  ] as const) {
    const res = await stack.api.post('/contacts', {
      key: project.secretKey,
      body: { email, subscribed },
    });
    expect(res.status, res.text).toBe(201);
  }
});
afterAll(async () => {
  await stack?.stop();
});

const list = (query: string) =>
  stack.api.get(`/contacts?${query}`, { key: project.secretKey }).then((r) => {
    expect(r.status, r.text).toBe(200);
    return r.body as { data: { email: string }[]; total: number; cursor: string | null };
  });

describe('GET /contacts?subscribed=', () => {
  it('filters on the subscription state, with the total of the filtered list', async () => {
    const subscribed = await list('subscribed=true');
    expect(subscribed.total).toBe(3);
    expect(subscribed.data.map((c) => c.email).sort()).toEqual([
      'in-1@filter.example',
      'in-2@filter.example',
      'in-3@other.example',
    ]);
    const unsubscribed = await list('subscribed=false');
    expect(unsubscribed).toMatchObject({ total: 1, data: [{ email: 'out-1@filter.example' }] });
    expect((await list('')).total).toBe(4);
  });

  it('combines with search and keeps the filter across cursor pages', async () => {
    const first = await list('subscribed=true&search=filter.example&limit=1');
    expect(first.total).toBe(2);
    const second = await list(
      `subscribed=true&search=filter.example&limit=1&cursor=${first.cursor}`,
    );
    expect([...first.data, ...second.data].map((c) => c.email).sort()).toEqual([
      'in-1@filter.example',
      'in-2@filter.example',
    ]);
  });

  it('refuses another value with a field error', async () => {
    const res = await stack.api.get('/contacts?subscribed=yes', { key: project.secretKey });
    expect(res.status).toBe(422);
    expect(res.body.error.errors[0].field).toContain('subscribed');
  });
});
