import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail, type TestUser } from '../helpers/factories.js';
import type { HttpResponse } from '../helpers/http.js';
import { waitForJob } from '../helpers/jobs.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';
import { signedEmailCallback } from '../helpers/email-callback.js';

// Text PostgreSQL cannot store (NUL; a lone surrogate, which JSON can carry as "\ud800") in any
// string or key of any route's input is a 422 naming its path, refused before the route's work.
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const BAD = ['\u0000', '\ud800'];
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** The path a field error names for a key (its bad characters escaped, as the API prints them). */
const printable = (key: string): string => JSON.stringify(key).slice(1, -1);
const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** Each string leaf and each key of `body` in turn made bad, with the path the 422 must name. */
function* variants(body: Json, bad: string, path = ''): Generator<{ body: Json; field: string }> {
  if (typeof body === 'string') yield { body: `${body}${bad}`, field: path || '(root)' };
  else if (Array.isArray(body)) {
    for (const [i, item] of body.entries())
      for (const v of variants(item, bad, join(path, String(i))))
        yield { body: body.map((x, j) => (j === i ? v.body : x)), field: v.field };
  } else if (body !== null && typeof body === 'object') {
    for (const [key, value] of Object.entries(body)) {
      const renamed = `${key}${bad}`;
      yield {
        body: Object.fromEntries(
          Object.entries(body).map(([k, v]) => [k === key ? renamed : k, v]),
        ) as Json,
        field: join(path, printable(renamed)),
      };
      for (const v of variants(value, bad, join(path, key)))
        yield { body: { ...body, [key]: v.body }, field: v.field };
    }
  }
}

interface Family {
  method: 'post' | 'patch' | 'put';
  path: string;
  body: Json;
  auth: { key?: string; cookie?: string };
}

describe('text PostgreSQL cannot store', () => {
  let owner: TestUser;
  let project: { id: string; secretKey: string; publicKey: string };
  let sk: { key: string };
  const answers: HttpResponse[] = [];

  beforeAll(async () => {
    const fixture = await projectFixture(stack.api);
    owner = fixture.owner;
    project = fixture.project;
    sk = fixture.sk;
  });

  /** What a refused request must not have changed: every list of the project. */
  async function counts(workflowId: string): Promise<Record<string, unknown>> {
    const get = async (path: string, auth: { key?: string; cookie?: string } = sk) => {
      const res = await stack.api.get(path, auth);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      return res.body;
    };
    return {
      contacts: (await get('/contacts?limit=1')).total,
      contactList: (await get('/contacts?limit=100')).data.map((c: { data: unknown }) => c.data),
      events: (await get('/events?limit=100')).data.length,
      templates: (await get('/templates?limit=100')).total,
      campaigns: (await get('/campaigns?limit=100')).data.total,
      segments: (await get('/segments')).length,
      workflows: (await get('/workflows')).total,
      steps: (await get(`/workflows/${workflowId}`)).steps.length,
      projects: (await get('/users/@me/projects', { cookie: owner.cookie })).map(
        (p: { name: string }) => p.name,
      ),
    };
  }

  it('refuses it in every string and key of each route family with a 422 naming the path', async () => {
    const email = uniqueEmail('kept');
    const contact = await stack.api.post('/contacts', { ...sk, body: { email } });
    expect(contact.status, contact.text).toBe(201);
    const workflow = await stack.api.post('/workflows', {
      ...sk,
      body: { name: 'Kept', triggerEvent: 'kept' },
    });
    expect(workflow.status, workflow.text).toBe(201);
    const before = await counts(workflow.body.id);
    for (const [what, value] of Object.entries(before)) expect(value, what).toBeDefined();
    const signupEmail = uniqueEmail('signup');

    const families: Family[] = [
      {
        method: 'post',
        path: '/v1/track',
        auth: { key: project.publicKey },
        body: {
          event: 'signed-up',
          email: uniqueEmail('track'),
          data: { plan: 'pro', tags: ['a', 'b'], address: { city: 'Oslo' } },
        },
      },
      {
        method: 'post',
        path: '/v1/send',
        auth: sk,
        body: {
          to: { name: 'Ada', email: uniqueEmail('to') },
          subject: 'Hello {{ firstName }}',
          body: '<p>Hi</p>',
          from: { name: 'Team', email: 'team@example.com' },
          headers: { 'X-Campaign': 'spring' },
          data: { firstName: 'Ada' },
        },
      },
      {
        method: 'post',
        path: '/contacts',
        auth: sk,
        body: { email: uniqueEmail('new'), data: { plan: 'pro', tags: ['x'] } },
      },
      {
        method: 'patch',
        path: `/contacts/${contact.body.id}`,
        auth: sk,
        body: { data: { plan: 'pro', nested: { deep: ['v'] } } },
      },
      {
        method: 'post',
        path: '/contacts/lookup',
        auth: sk,
        body: { emails: [email, uniqueEmail('other')] },
      },
      {
        method: 'post',
        path: '/segments',
        auth: sk,
        body: {
          name: 'Pro',
          filters: {
            operator: 'AND',
            conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }],
          },
        },
      },
      {
        method: 'post',
        path: '/templates',
        auth: sk,
        body: {
          name: 'Welcome',
          subject: 'Welcome',
          body: '<p>Hi</p>',
          from: 'team@example.com',
          fromName: 'Team',
        },
      },
      {
        method: 'post',
        path: '/campaigns',
        auth: sk,
        body: {
          name: 'Spring',
          description: 'Sale',
          subject: 'Spring sale',
          body: '<p>Sale</p>',
          from: 'team@example.com',
          fromName: 'Team',
        },
      },
      {
        method: 'post',
        path: '/workflows',
        auth: sk,
        body: { name: 'Onboarding', description: 'New users', triggerEvent: 'signed-up' },
      },
      {
        method: 'post',
        path: `/workflows/${workflow.body.id}/steps`,
        auth: sk,
        body: {
          type: 'WEBHOOK',
          name: 'Notify',
          config: {
            url: 'https://hooks.example.com/x',
            method: 'POST',
            headers: { 'X-Token': 'secret' },
            body: '{"email":"{{ email }}"}',
          },
        },
      },
      {
        method: 'patch',
        path: `/users/@me/projects/${project.id}`,
        auth: { cookie: owner.cookie },
        body: { name: 'Renamed' },
      },
      {
        method: 'post',
        path: '/users/@me/projects',
        auth: { cookie: owner.cookie },
        body: { name: 'Second' },
      },
      {
        method: 'post',
        path: '/auth/signup',
        auth: {},
        body: { email: signupEmail, password: 'correct horse battery', name: 'Ada' },
      },
    ];

    let cases = 0;
    for (const family of families) {
      for (const bad of BAD) {
        for (const variant of variants(family.body, bad)) {
          const res = await stack.api.request(family.method.toUpperCase(), family.path, {
            ...family.auth,
            body: variant.body,
          });
          answers.push(res);
          cases += 1;
          const label = `${family.method} ${family.path} ${variant.field} ${JSON.stringify(bad)}`;
          expect(res.status, `${label}: ${res.text}`).toBe(422);
          expect(res.body.error.code, label).toBe('VALIDATION_ERROR');
          expect(res.body.error.errors, label).toEqual([
            { field: variant.field, message: expect.any(String), code: 'invalid_string' },
          ]);
        }
      }
    }
    expect(cases).toBeGreaterThan(100);

    expect(await counts(workflow.body.id)).toEqual(before);
    // No sign-up went through: the address has no account.
    const login = await stack.api.post('/auth/login', {
      body: { email: signupEmail, password: 'correct horse battery' },
    });
    expect(login.status).toBe(401);
  });

  it('refuses it in query values and keys and in path parameters', async () => {
    const cases: { method?: string; path: string; field: string }[] = [
      { path: '/contacts?search=a%00b', field: 'query.search' },
      { path: '/contacts?search=a&search=%00', field: 'query.search.1' },
      { path: '/contacts?x%00=1', field: 'query.x\\u0000' },
      { path: '/templates?search=%00', field: 'query.search' },
      { path: '/workflows?search=%00', field: 'query.search' },
      { method: 'DELETE', path: '/contacts/fields/plan%00', field: 'params.field' },
      { path: '/contacts/fields/plan%00/values', field: 'params.field' },
      { path: '/contacts/fields/plan%00/usage', field: 'params.field' },
      { method: 'DELETE', path: '/events/signed-up%00', field: 'params.eventName' },
      { path: '/events/signed-up%00/usage', field: 'params.eventName' },
    ];
    for (const { method = 'GET', path, field } of cases) {
      const res = await stack.api.request(method, path, sk);
      answers.push(res);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(422);
      expect(res.body.error.errors, path).toEqual([
        { field, message: expect.any(String), code: 'invalid_string' },
      ]);
    }
    // Bytes that are not UTF-8 decode to U+FFFD (query) or stay escaped (path): storable, answered.
    for (const [method, path] of [
      ['GET', '/contacts?search=%ED%A0%80'],
      ['GET', '/contacts?search=%FF'],
      ['GET', '/contacts/fields/%ED%A0%80/values'],
      ['DELETE', '/contacts/fields/%ED%A0%80'],
      ['DELETE', '/events/%ED%A0%80'],
    ] as const) {
      const res = await stack.api.request(method, path, sk);
      answers.push(res);
      expect(res.status, `${path}: ${res.text}`).toBeLessThan(500);
    }
  });

  it('answered no request with a 5xx', () => {
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status >= 500).map((a) => a.text)).toEqual([]);
  });
});

describe('a CSV import with text PostgreSQL cannot store', () => {
  async function importCsv(content: Buffer) {
    const { project, sk } = await projectFixture(stack.api);
    const res = await stack.api.upload('/contacts/import', {
      field: 'file',
      content,
      key: project.secretKey,
    });
    expect(res.status, res.text).toBe(202);
    const job = await waitForJob(stack.api, `/contacts/import/${res.body.jobId}`, sk.key);
    const contacts = await stack.api.get('/contacts?limit=100', sk);
    return { job, emails: contacts.body.data.map((c: { email: string }) => c.email).sort() };
  }

  it('reports the rows that hold it and imports the others (UTF-8 with NUL)', async () => {
    const csv = [
      'email,plan',
      'good-1@csv.test,pro',
      'bad-1@csv.test,p\u0000ro',
      'good-2@csv.test,free',
      'bad\u0000-2@csv.test,free',
      '',
    ].join('\n');
    const { job, emails } = await importCsv(Buffer.from(csv));
    expect(job).toMatchObject({
      status: 'COMPLETED',
      result: { created: 2, updated: 0, failed: 2 },
    });
    expect(job.result.errors).toEqual([
      { row: 3, message: expect.stringContaining('"plan"') },
      { row: 5, message: expect.stringContaining('"email"') },
    ]);
    expect(emails).toEqual(['good-1@csv.test', 'good-2@csv.test']);
  });

  it('reports a lone surrogate (a UTF-16 file) the same way', async () => {
    const csv = 'email,plan\ngood@csv.test,pro\nbad@csv.test,p\ud800\n';
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv, 'utf16le')]);
    const { job, emails } = await importCsv(utf16);
    expect(job).toMatchObject({ status: 'COMPLETED', result: { created: 1, failed: 1 } });
    expect(job.result.errors).toEqual([{ row: 3, message: expect.stringContaining('"plan"') }]);
    expect(emails).toEqual(['good@csv.test']);
  });

  it('fails every row of a file whose header holds it, the job still completing', async () => {
    const { job, emails } = await importCsv(Buffer.from('email,pl\u0000an\na@csv.test,pro\n'));
    expect(job).toMatchObject({ status: 'COMPLETED', result: { created: 0, failed: 1 } });
    expect(job.result.errors).toEqual([{ row: 1, message: expect.stringContaining('header') }]);
    expect(emails).toEqual([]);
  });
});

describe('a delivery report with text PostgreSQL cannot store', () => {
  it('is kept cleaned, not refused', async () => {
    const res = await stack.api.post(
      '/webhooks/email',
      signedEmailCallback(
        { type: 'delivered', messageId: '<a\u0000b\ud800@example.test>' },
        { secret: stack.env.EMAIL_WEBHOOK_SECRET as string },
      ),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: true, applied: false });
  });
});
