import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, signUp, type TestProject, type TestUser } from '../helpers/factories.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
let owner: TestUser;
let project: TestProject;
beforeAll(async () => {
  stack = await startStack();
  owner = await signUp(stack.api, 'preview');
  project = await createProject(stack.api, owner);
});
afterAll(async () => {
  await stack?.stop();
});

const preview = (body: unknown, key = project.secretKey) =>
  stack.api.post('/templates/preview', { key, body });

describe('POST /templates/preview', () => {
  it('renders as a send would: sample data, given data on top, HTML escaped in the body only', async () => {
    const res = await preview({
      subject: 'Hi {{ firstName }} & {{ company }}',
      body: '<p>Hello {{ firstName }} from {{ company }}</p><a href="{{ unsubscribeUrl }}">stop</a>',
      data: { company: '<Acme>' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      subject: 'Hi Jane & <Acme>',
      html: '<p>Hello Jane from &lt;Acme&gt;</p><a href="#unsubscribe">stop</a>',
    });
  });

  it('answers the same field errors as saving would, with their line', async () => {
    const syntax = await preview({ subject: 'ok', body: 'line one\n{% if %}' });
    expect(syntax.status).toBe(422);
    expect(syntax.body.error.errors).toEqual([
      { field: 'body', message: expect.stringMatching(/^Line 2: /), code: 'template_syntax' },
    ]);
    const unsafe = await preview({ subject: '{{ range.constructor }}', body: 'x' });
    expect(unsafe.status).toBe(422);
    expect(unsafe.body.error.errors[0]).toMatchObject({
      field: 'subject',
      code: 'template_unsafe',
    });
  });

  it('stores nothing, and works with the dashboard session and X-Project-Id', async () => {
    const res = await stack.api.post('/templates/preview', {
      cookie: owner.cookie,
      headers: { 'X-Project-Id': project.id },
      body: { subject: 's', body: '<script>alert(1)</script>' },
    });
    expect(res.status).toBe(200);
    // The preview is the rendered source; the dashboard shows it only in a sandboxed frame.
    expect(res.body.html).toBe('<script>alert(1)</script>');
    const list = await stack.api.get('/templates', { key: project.secretKey });
    expect(list.body.total).toBe(0);
  });
});
