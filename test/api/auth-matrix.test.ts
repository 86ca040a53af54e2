import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectedAnswer,
  MATRIX_CREDENTIALS,
  namesResource,
  pathParams,
  type MatrixAnswer,
  type MatrixCredential,
} from '../../api/http/auth-expectation.pure.js';
import type { AnyRoute } from '../../api/http/route.js';
import { docsRoutes } from '../../api/routes/docs.routes.js';
import { resourceRoutes } from '../../api/routes/index.js';
import { withDatabase } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { createProject, signUp, type TestProject, type TestUser } from '../helpers/factories.js';
import type { HttpResponse, RequestOptions } from '../helpers/http.js';
import { sessionCookieOf } from '../helpers/http.js';
import { waitForJob } from '../helpers/jobs.js';
import { startStack, type TestStack } from '../helpers/stack.js';
import { waitForExecution } from '../helpers/workflows.js';

/*
 * Every route of the route table x nine callers. Each cell's expected answer comes from the
 * route's own `auth` and `role` (api/http/auth-expectation.pure.ts), or from the `authMatrix`
 * exception the route declares beside them. The fixtures are made through the API, so the ids in
 * the paths are real: project A (OWNER, ADMIN, MEMBER) owns them, B is another project with its
 * own owner, C is a disabled project with a MEMBER.
 *
 * The matrix must not destroy what it reads: its callers who may act on A send a body that fails
 * validation (a JSON array) to routes that take one, and a valid-looking id that does not exist
 * to bodiless routes that change something; a route that removes, resets or re-keys the project
 * it names gets a scratch project with the same three members. Cross-project cells send A's real
 * ids (and a valid body, so the handler's own scoping is what answers) and must change nothing.
 */

const routes: AnyRoute[] = [...resourceRoutes(), ...docsRoutes({ document: () => ({}) })];
const ROUTE_NAME = (r: AnyRoute): string => `${r.method.toUpperCase()} ${r.path}`;

/** Present in every name, email and text of A's fixtures: no one but A's members may read it. */
const MARK = `mxmark${randomBytes(4).toString('hex')}`;
const JUNK_BODY: unknown[] = [];
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Routes the matrix cannot call with the shared sessions: they end the caller's session. */
const ENDS_SESSION = new Set(['GET /auth/logout', 'POST /auth/logout']);

interface Fixture {
  owner: TestUser;
  admin: TestUser;
  member: TestUser;
  otherOwner: TestUser;
  disabledMember: TestUser;
  a: TestProject;
  b: TestProject;
  c: TestProject;
  ownerSessionId: string;
  contactId: string;
  contactEmail: string;
  field: string;
  eventName: string;
  segmentId: string;
  templateId: string;
  campaignId: string;
  workflowId: string;
  stepIds: [string, string];
  transitionId: string;
  executionId: string;
  emailId: string;
  domainId: string;
  importJobId: string;
  bulkJobId: string;
  uploadKey: string;
  reportId: string;
  webhookEndpointId: string;
  webhookDeliveryId: string;
}

/**
 * Valid bodies for the cells that send A's ids with B's key to a route of A's data: validation
 * passes, so only the handler's scoping stands between B and A's rows.
 */
const CROSS_PROJECT_BODIES: Record<string, (f: Fixture) => unknown> = {
  'PATCH /contacts/:id': () => ({ subscribed: false, data: { hijacked: true } }),
  'PATCH /segments/:id': () => ({ name: 'Renamed by another project' }),
  'POST /segments/:id/members': (f) => ({ emails: [f.contactEmail] }),
  'DELETE /segments/:id/members': (f) => ({ emails: [f.contactEmail] }),
  'PATCH /workflows/:id': () => ({ name: 'Renamed by another project' }),
  'POST /workflows/:id/steps': () => ({ type: 'DELAY', config: { amount: 1, unit: 'seconds' } }),
  'PATCH /workflows/:id/steps/:stepId': () => ({ name: 'Renamed by another project' }),
  'POST /workflows/:id/transitions': (f) => ({ fromStepId: f.stepIds[1], toStepId: f.stepIds[0] }),
  'POST /workflows/:id/executions': (f) => ({ email: f.contactEmail }),
  'PUT /campaigns/:id': () => ({ name: 'Renamed by another project', audienceType: 'ALL' }),
  'POST /campaigns/:id/send': () => ({}),
  'POST /campaigns/:id/test': () => ({ email: 'intruder@example.com' }),
  'PATCH /templates/:id': () => ({ name: 'Renamed by another project' }),
  'PATCH /webhook-endpoints/:id': () => ({ enabled: true }),
  'POST /webhook-endpoints/:id/rotate-secret': () => ({ overlapSeconds: 0 }),
  'POST /webhook-endpoints/:id/deliveries/retry': () => ({ since: new Date(0).toISOString() }),
};

let stack: TestStack;
let f: Fixture;
const forwardedFor = (): string => {
  const [x, y, z] = randomBytes(3);
  return `10.${x}.${y}.${z}`;
};

beforeAll(async () => {
  // The matrix sends well over a minute's budget of requests to A alone.
  stack = await startStack({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  f = await buildFixture();
  // Nothing moves in the background while the matrix compares A's rows before and after.
  await stack.stopWorker();
});
afterAll(async () => {
  await stack?.stop();
});

async function ok(res: HttpResponse, status: number, what: string): Promise<HttpResponse> {
  expect(res.status, `${what}: ${res.text}`).toBe(status);
  return res;
}

async function addMember(project: TestProject, by: TestUser, user: TestUser, role: string) {
  await ok(
    await stack.api.post(`/projects/${project.id}/members`, {
      cookie: by.cookie,
      body: { email: user.email, role },
    }),
    201,
    `add ${role}`,
  );
}

async function buildFixture(): Promise<Fixture> {
  const api = stack.api;
  const [owner, admin, member, otherOwner, cOwner, disabledMember] = await Promise.all(
    ['owner', 'admin', 'member', 'other', 'cowner', 'cmember'].map((l) => signUp(api, l)),
  );
  const a = await createProject(api, owner as TestUser, `A ${MARK}`);
  const b = await createProject(api, otherOwner as TestUser, 'B');
  const c = await createProject(api, cOwner as TestUser, 'C');
  await addMember(a, owner as TestUser, admin as TestUser, 'ADMIN');
  await addMember(a, owner as TestUser, member as TestUser, 'MEMBER');
  await addMember(c, cOwner as TestUser, disabledMember as TestUser, 'MEMBER');
  await withDatabase((db) =>
    db.query(
      "UPDATE projects SET disabled_at = now(), disabled_reason = 'auth matrix' WHERE id = $1",
      [c.id],
    ),
  );
  const sk = { key: a.secretKey };

  const sessions = await ok(
    await api.get('/users/@me/sessions', { cookie: (owner as TestUser).cookie }),
    200,
    'sessions',
  );
  const ownerSessionId = (sessions.body as { id: string; current: boolean }[]).find(
    (s) => s.current,
  )?.id as string;

  // Templates and campaigns send from a verified domain; no DNS server here, so it is marked so.
  const sender = `hello@${MARK}.example.com`;
  const domain = await ok(
    await api.post('/domains', { ...sk, body: { domain: `${MARK}.example.com` } }),
    201,
    'domain',
  );
  await withDatabase((db) =>
    db.query(
      "UPDATE domains SET status = 'VERIFIED', dkim_verified = true, spf_verified = true, verified_at = now() WHERE id = $1",
      [domain.body.id],
    ),
  );

  const field = `${MARK}field`;
  const contactEmail = `${MARK}@example.com`;
  const contact = await ok(
    await api.post('/contacts', { ...sk, body: { email: contactEmail, data: { [field]: MARK } } }),
    201,
    'contact',
  );
  // On A's suppression list, so that lifting it is a real cross-project target.
  await withDatabase((db) =>
    db.query("INSERT INTO suppressions (project_id, email, reason) VALUES ($1, $2, 'complaint')", [
      a.id,
      contactEmail,
    ]),
  );
  // A delivery report of A's, its raw message kept where the inbound receiver keeps one.
  const reportId = randomUUID();
  const reportKey = path.posix.join('reports', a.id, `${reportId}.eml`);
  await mkdir(path.join(stack.env.DATA_DIR as string, 'reports', a.id), { recursive: true });
  await writeFile(
    path.join(stack.env.DATA_DIR as string, reportKey),
    `Subject: ${MARK}\r\n\r\nA report\r\n`,
  );
  await withDatabase((db) =>
    db.query(
      `INSERT INTO delivery_reports (id, project_id, recipient, format, outcome, reason, storage_key)
       VALUES ($1, $2, $3, 'unknown', 'undetermined', $4, $5)`,
      [reportId, a.id, `${MARK}@rp.${MARK}.example.com`, MARK, reportKey],
    ),
  );
  const eventName = `${MARK}_event`;
  await ok(
    await api.post('/v1/track', { ...sk, body: { email: contactEmail, event: eventName } }),
    200,
    'track',
  );
  const segment = await ok(
    await api.post('/segments', { ...sk, body: { name: `Segment ${MARK}`, type: 'STATIC' } }),
    201,
    'segment',
  );
  await ok(
    await api.post(`/segments/${segment.body.id}/members`, {
      ...sk,
      body: { emails: [contactEmail] },
    }),
    200,
    'segment members',
  );
  const template = await ok(
    await api.post('/templates', {
      ...sk,
      body: {
        name: `Template ${MARK}`,
        subject: `Subject ${MARK}`,
        body: `<p>${MARK}</p>`,
        from: sender,
      },
    }),
    201,
    'template',
  );
  const campaign = await ok(
    await api.post('/campaigns', {
      ...sk,
      body: {
        name: `Campaign ${MARK}`,
        subject: `Subject ${MARK}`,
        body: `<p>${MARK}</p>`,
        from: sender,
        audienceType: 'ALL',
      },
    }),
    201,
    'campaign',
  );
  const workflow = await ok(
    await api.post('/workflows', {
      ...sk,
      body: { name: `Workflow ${MARK}`, triggerEvent: `${MARK}_trigger` },
    }),
    201,
    'workflow',
  );
  const workflowId = workflow.body.id as string;
  const stepIds: string[] = [];
  for (const name of ['first', 'second']) {
    const step = await ok(
      await api.post(`/workflows/${workflowId}/steps`, {
        ...sk,
        body: { type: 'DELAY', name: `${name} ${MARK}`, config: { amount: 1, unit: 'days' } },
      }),
      201,
      'step',
    );
    stepIds.push(step.body.id);
  }
  const transition = await ok(
    await api.post(`/workflows/${workflowId}/transitions`, {
      ...sk,
      body: { fromStepId: stepIds[0], toStepId: stepIds[1] },
    }),
    201,
    'transition',
  );
  await ok(
    await api.patch(`/workflows/${workflowId}`, { ...sk, body: { enabled: true } }),
    200,
    'enable workflow',
  );
  const execution = await api.post(`/workflows/${workflowId}/executions`, {
    ...sk,
    body: { contactId: contact.body.id },
  });
  expect(execution.status, execution.text).toBeLessThan(300);
  const executionId = execution.body.id as string;
  await waitForExecution(api, sk, workflowId, executionId, (x) => x.status === 'WAITING');

  const sent = await api.post('/v1/send', {
    ...sk,
    body: { to: contactEmail, from: sender, subject: `Mail ${MARK}`, body: `<p>${MARK}</p>` },
  });
  expect(sent.status, sent.text).toBeLessThan(300);
  const emailId = sent.body.data?.emails?.[0]?.email as string | undefined;
  expect(emailId, sent.text).toBeDefined();
  await eventually(
    async () => {
      const res = await api.get(`/emails/${emailId}`, sk);
      return res.status === 200 && !/QUEUED|SENDING/.test(String(res.body.status ?? ''));
    },
    { what: 'the email to leave the outbox', timeoutMs: 30_000 },
  );

  const imported = await api.upload('/contacts/import', {
    field: 'file',
    content: `email,plan\n${MARK}-imported@example.com,${MARK}\n`,
    key: a.secretKey,
  });
  expect(imported.status, imported.text).toBe(202);
  await waitForJob(api, `/contacts/import/${imported.body.jobId}`, a.secretKey);
  const bulk = await api.post('/contacts/bulk-subscribe', {
    ...sk,
    body: { contactIds: [contact.body.id] },
  });
  expect(bulk.status, bulk.text).toBeLessThan(300);
  await waitForJob(api, `/contacts/bulk/${bulk.body.jobId}`, a.secretKey);
  const upload = await api.upload('/uploads/image', {
    field: 'image',
    content: PNG_1X1,
    filename: 'pixel.png',
    key: a.secretKey,
  });
  expect(upload.status, upload.text).toBeLessThan(300);
  // Disabled, so nothing is ever sent to its (public, unreachable) address; its one delivery is
  // written as a failed one would be.
  const endpoint = await ok(
    await api.post('/webhook-endpoints', {
      ...sk,
      body: {
        url: `https://93.184.216.34/${MARK}`,
        eventTypes: [eventName],
        description: MARK,
        enabled: false,
      },
    }),
    201,
    'webhook endpoint',
  );
  const webhookDeliveryId = randomUUID();
  await withDatabase((db) =>
    db.query(
      `INSERT INTO webhook_deliveries (id, project_id, endpoint_id, type, payload, queue, status)
       VALUES ($1, $2, $3, 'webhook.test', $4::jsonb, 'auth-matrix', 'FAILED')`,
      [
        webhookDeliveryId,
        a.id,
        endpoint.body.id,
        JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: {} }),
      ],
    ),
  );

  return {
    owner: owner as TestUser,
    admin: admin as TestUser,
    member: member as TestUser,
    otherOwner: otherOwner as TestUser,
    disabledMember: disabledMember as TestUser,
    a,
    b,
    c,
    ownerSessionId,
    contactId: contact.body.id,
    contactEmail,
    field,
    eventName,
    segmentId: segment.body.id,
    templateId: template.body.id,
    campaignId: campaign.body.data.id,
    workflowId,
    stepIds: stepIds as [string, string],
    transitionId: transition.body.id,
    executionId,
    emailId: emailId as string,
    domainId: domain.body.id,
    importJobId: imported.body.jobId,
    bulkJobId: bulk.body.jobId,
    uploadKey: upload.body.key,
    reportId,
    webhookEndpointId: endpoint.body.id,
    webhookDeliveryId,
  };
}

/** What `:id` names on a path: the resource of its first segment (or the project, the session). */
function idKind(path: string): string {
  if (path.startsWith('/users/@me/sessions/')) return 'session';
  if (path.startsWith('/users/@me/projects/') || path.startsWith('/projects/')) return 'project';
  return path.split('/')[1] as string;
}

/** A's real value for each path parameter; throws for one it does not know (none is skipped). */
function realParam(path: string, param: string, project: TestProject): string {
  const byKind: Record<string, string> = {
    session: f.ownerSessionId,
    project: project.id,
    contacts: f.contactId,
    segments: f.segmentId,
    workflows: f.workflowId,
    campaigns: f.campaignId,
    emails: f.emailId,
    domains: f.domainId,
    templates: f.templateId,
    'delivery-reports': f.reportId,
    'webhook-endpoints': f.webhookEndpointId,
  };
  const values: Record<string, string | undefined> = {
    id: byKind[idKind(path)],
    userId: f.member.id,
    field: f.field,
    jobId: path.includes('/import/') ? f.importJobId : f.bulkJobId,
    stepId: f.stepIds[0],
    transitionId: f.transitionId,
    executionId: f.executionId,
    deliveryId: f.webhookDeliveryId,
    contactId: f.contactId,
    eventName: f.eventName,
    projectId: project.id,
    key: f.uploadKey,
    token: `not-a-token-${MARK}`,
    email: f.contactEmail,
    file: 'swagger-ui.css',
  };
  const value = values[param];
  if (!value) throw new Error(`${path}: no fixture value for :${param}`);
  return value;
}

/** The project itself stays; every other parameter names nothing that exists. */
function missingParam(path: string, param: string, project: TestProject): string {
  const namesProject = (param === 'id' && idKind(path) === 'project') || param === 'projectId';
  if (namesProject) return project.id;
  if (['field', 'eventName', 'key', 'token', 'file'].includes(param)) {
    return `missing${MARK}`;
  }
  if (param === 'email') return `missing${MARK}@example.com`;
  return randomUUID();
}

function fillPath(path: string, value: (param: string) => string): string {
  let filled = path;
  for (const param of pathParams(path)) {
    filled = filled.replace(`:${param}`, encodeURIComponent(value(param)));
  }
  return filled;
}

const isMutation = (route: AnyRoute): boolean => route.method !== 'get';

/** Removing, resetting or re-keying the project it names: its cells run on a scratch project. */
const consumesProject = (route: AnyRoute): boolean =>
  route.auth === 'projectPath' && isMutation(route) && !route.body && !namesResource(route);

/** Callers who act in A itself (or in C): never sent A's real ids on a route that changes things. */
const ACTS_IN_PROJECT: ReadonlySet<MatrixCredential> = new Set([
  'memberSession',
  'adminSession',
  'ownerSession',
  'disabledProjectSession',
]);

async function scratchProject(): Promise<TestProject> {
  const scratch = await createProject(stack.api, f.owner, 'Scratch');
  await addMember(scratch, f.owner, f.admin, 'ADMIN');
  await addMember(scratch, f.owner, f.member, 'MEMBER');
  return scratch;
}

async function freshCookie(user: TestUser): Promise<string> {
  const res = await stack.api.post('/auth/login', {
    body: { email: user.email, password: user.password },
    headers: { 'X-Forwarded-For': forwardedFor() },
  });
  expect(res.status, res.text).toBe(200);
  return sessionCookieOf(res);
}

function sessionUser(credential: MatrixCredential): TestUser | undefined {
  switch (credential) {
    case 'otherUserSession':
      return f.otherOwner;
    case 'memberSession':
      return f.member;
    case 'adminSession':
      return f.admin;
    case 'ownerSession':
      return f.owner;
    case 'disabledProjectSession':
      return f.disabledMember;
    case 'none':
    case 'garbageKey':
    case 'publicKey':
    case 'otherProjectKey':
      return undefined;
  }
}

async function credentialOptions(
  credential: MatrixCredential,
  route: AnyRoute,
  project: TestProject,
): Promise<RequestOptions> {
  const headers = { 'X-Forwarded-For': forwardedFor() };
  const user = sessionUser(credential);
  if (user) {
    const cookie = ENDS_SESSION.has(ROUTE_NAME(route)) ? await freshCookie(user) : user.cookie;
    const projectId = credential === 'disabledProjectSession' ? f.c.id : project.id;
    return { cookie, headers: { ...headers, 'X-Project-Id': projectId } };
  }
  switch (credential) {
    case 'none':
      return { headers };
    case 'garbageKey':
      return { headers, key: `sk_${randomBytes(24).toString('base64url').slice(0, 32)}` };
    case 'publicKey':
      return { headers, key: project.publicKey };
    default:
      return { headers, key: f.b.secretKey };
  }
}

interface Cell {
  route: string;
  credential: MatrixCredential;
  expected: MatrixAnswer;
  status: number;
  code?: string;
  text: string;
}

function meets(expected: MatrixAnswer, res: HttpResponse): boolean {
  const code = (res.body as { error?: { code?: string } })?.error?.code;
  switch (expected) {
    case 'allowed':
      return (
        res.status !== 401 &&
        res.status !== 403 &&
        res.status < 500 &&
        // A 404 for the project means the caller was turned away.
        !(res.status === 404 && /Project not found/.test(res.text))
      );
    case 'denied-401':
      return res.status === 401;
    case 'denied-403':
      return res.status === 403 && code === 'FORBIDDEN';
    case 'disabled-403':
      return res.status === 403 && code === 'PROJECT_DISABLED';
    case 'not-found-404':
      return res.status === 404 && code === 'NOT_FOUND';
  }
}

/** A's rows in every table that has a project_id, and A's project row, as one fingerprint. */
let fingerprintQuery: string | undefined;
async function fingerprintOfA(): Promise<Record<string, string>> {
  return withDatabase(async (db) => {
    if (!fingerprintQuery) {
      const tables = await db.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.columns
          WHERE table_schema = 'public' AND column_name = 'project_id' ORDER BY table_name`,
      );
      fingerprintQuery = [
        `SELECT 'projects' AS t, count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), '' ORDER BY md5(x::text))), '') AS f FROM projects x WHERE id = $1`,
        ...tables.rows.map(
          ({ table_name: t }) =>
            `SELECT '${t}', count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), '' ORDER BY md5(x::text))), '') FROM "${t}" x WHERE project_id = $1`,
        ),
      ].join(' UNION ALL ');
    }
    const rows = await db.query<{ t: string; f: string }>(fingerprintQuery, [f.a.id]);
    return Object.fromEntries(rows.rows.map((r) => [r.t, r.f]));
  });
}

describe('the auth matrix', () => {
  it('answers every route x credential as the route declares, leaks nothing, changes nothing across projects', async () => {
    const cells: Cell[] = [];
    const mismatches: string[] = [];
    const leaks: string[] = [];
    const changed: string[] = [];
    const statuses = new Map<number, number>();
    const aSecrets = [
      MARK,
      f.a.secretKey,
      f.contactId,
      f.segmentId,
      f.templateId,
      f.campaignId,
      f.workflowId,
      f.emailId,
      f.domainId,
      f.executionId,
      f.webhookEndpointId,
      f.webhookDeliveryId,
    ];

    for (const route of routes) {
      const name = ROUTE_NAME(route);
      const needsCrossBody =
        Boolean(route.body) && route.auth === 'project' && namesResource(route);
      const crossBody = CROSS_PROJECT_BODIES[name];
      if (needsCrossBody) {
        expect(crossBody, `${name}: add a valid body to CROSS_PROJECT_BODIES`).toBeDefined();
        const parsed = route.body?.safeParse(crossBody?.(f));
        expect(parsed?.success, `${name}: its cross-project body must be valid`).toBe(true);
      }
      if (route.body) {
        expect(route.body.safeParse(JUNK_BODY).success, `${name}: the junk body must fail`).toBe(
          false,
        );
      }
      const project = consumesProject(route) ? await scratchProject() : f.a;
      const before = await fingerprintOfA();
      let checkedUnchanged = false;

      for (const credential of MATRIX_CREDENTIALS) {
        // Callers of A's own come after the others: A's rows are compared once the others are done.
        if (ACTS_IN_PROJECT.has(credential) && credential !== 'disabledProjectSession') {
          if (!checkedUnchanged) {
            checkedUnchanged = true;
            const after = await fingerprintOfA();
            if (JSON.stringify(after) !== JSON.stringify(before)) {
              const tables = Object.keys(after).filter((t) => after[t] !== before[t]);
              changed.push(`${name}: ${tables.join(', ')}`);
            }
          }
        }
        const expected = expectedAnswer(route, credential);
        const safe = ACTS_IN_PROJECT.has(credential) && isMutation(route);
        const path = fillPath(route.path, (param) =>
          safe
            ? missingParam(
                route.path,
                param,
                credential === 'disabledProjectSession' ? f.c : project,
              )
            : credential === 'disabledProjectSession' &&
                ((param === 'id' && idKind(route.path) === 'project') || param === 'projectId')
              ? f.c.id
              : realParam(route.path, param, project),
        );
        const options = await credentialOptions(credential, route, project);
        if (route.body) {
          options.body =
            expected === 'not-found-404' && needsCrossBody && crossBody ? crossBody(f) : JUNK_BODY;
        }
        const res = await stack.api.request(route.method.toUpperCase(), path, options);
        const code = (res.body as { error?: { code?: string } })?.error?.code;
        cells.push({ route: name, credential, expected, status: res.status, code, text: res.text });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (!meets(expected, res)) {
          mismatches.push(
            `${name} [${credential}] expected ${expected}, got ${res.status} ${code ?? ''} ${res.text.slice(0, 200)}`,
          );
        }
        if (!ACTS_IN_PROJECT.has(credential) || credential === 'disabledProjectSession') {
          // What the caller sent may come back (a name echoed); anything else of A's is a leak.
          const sent = `${path} ${JSON.stringify(options.body ?? '')}`;
          const leaked = aSecrets.filter((s) => res.text.includes(s) && !sent.includes(s));
          if (leaked.length > 0) leaks.push(`${name} [${credential}] ${res.status}: ${leaked}`);
        }
        if (res.status >= 400 && res.headers.get('content-type')?.includes('json')) {
          expect(res.body, `${name} [${credential}]`).toMatchObject({
            success: false,
            error: {
              code: expect.any(String),
              message: expect.any(String),
              statusCode: res.status,
              requestId: expect.any(String),
            },
          });
        }
      }
    }

    const fiveHundreds = cells.filter((c) => c.status >= 500);
    const histogram = Object.fromEntries([...statuses].sort(([x], [y]) => x - y));
    console.log(
      `auth matrix: ${routes.length} routes x ${MATRIX_CREDENTIALS.length} credentials, ${cells.length} requests, statuses ${JSON.stringify(histogram)}, ${fiveHundreds.length} 5xx, ${mismatches.length} mismatches, ${leaks.length} leaks, ${changed.length} cross-project changes`,
    );
    expect({
      mismatches,
      leaks,
      changed,
      fiveHundreds: fiveHundreds.map((c) => `${c.route} [${c.credential}] ${c.status} ${c.text}`),
    }).toEqual({ mismatches: [], leaks: [], changed: [], fiveHundreds: [] });
  }, 600_000);

  it("refuses another project's ids in a body too, with nothing of A changed or shown", async () => {
    const bk = { key: f.b.secretKey, headers: { 'X-Forwarded-For': forwardedFor() } };
    const own = await stack.api.post('/workflows', {
      ...bk,
      body: { name: 'B workflow', triggerEvent: 'b_trigger' },
    });
    expect(own.status, own.text).toBe(201);
    const bWorkflow = own.body.id as string;
    const step = await stack.api.post(`/workflows/${bWorkflow}/steps`, {
      ...bk,
      body: { type: 'DELAY', config: { amount: 1, unit: 'days' } },
    });
    expect(step.status, step.text).toBe(201);
    const enabled = await stack.api.patch(`/workflows/${bWorkflow}`, {
      ...bk,
      body: { enabled: true },
    });
    expect(enabled.status, enabled.text).toBe(200);
    // refused: a 4xx naming nothing of A's; own: B's own project answers (empty, or a job that
    // touches only B's rows).
    const probes: { method: string; path: string; body: unknown; answer: 'refused' | 'own' }[] = [
      {
        method: 'POST',
        path: '/v1/send',
        body: { to: 'someone@example.com', template: f.templateId },
        answer: 'refused',
      },
      {
        method: 'POST',
        path: '/campaigns/audience',
        body: { audienceType: 'SEGMENT', segmentId: f.segmentId },
        answer: 'refused',
      },
      {
        method: 'POST',
        path: '/campaigns',
        body: {
          name: 'B',
          templateId: f.templateId,
          audienceType: 'SEGMENT',
          segmentId: f.segmentId,
        },
        answer: 'refused',
      },
      {
        method: 'POST',
        path: `/workflows/${bWorkflow}/executions`,
        body: { contactId: f.contactId },
        answer: 'refused',
      },
      {
        method: 'PATCH',
        path: `/workflows/${bWorkflow}`,
        body: { triggerType: 'SEGMENT_ENTRY', triggerConfig: { segmentId: f.segmentId } },
        answer: 'refused',
      },
      {
        method: 'POST',
        path: '/contacts/lookup',
        body: { emails: [f.contactEmail] },
        answer: 'own',
      },
      {
        method: 'POST',
        path: '/contacts/bulk-delete',
        body: { contactIds: [f.contactId] },
        answer: 'own',
      },
      {
        method: 'POST',
        path: '/contacts/bulk-unsubscribe',
        body: { contactIds: [f.contactId] },
        answer: 'own',
      },
    ];
    // The bulk jobs run in the worker: A's rows are compared once they are done.
    await stack.startWorker();
    // A's own events left undispatched while the worker was stopped are drained first.
    await eventually(
      async () =>
        withDatabase(async (db) => {
          const left = await db.query('SELECT 1 FROM event_outbox WHERE project_id = $1', [f.a.id]);
          return left.rowCount === 0;
        }),
      { what: "A's event outbox to drain", timeoutMs: 30_000 },
    );
    const before = await fingerprintOfA();
    const wrong: string[] = [];
    for (const { method, path, body, answer } of probes) {
      const res = await stack.api.request(method, path, { ...bk, body });
      const sent = `${path} ${JSON.stringify(body)}`;
      const leaked = [MARK, f.contactId, f.segmentId, f.templateId].filter(
        (s) => res.text.includes(s) && !sent.includes(s),
      );
      const jobId = (res.body as { jobId?: string }).jobId;
      if (jobId) await waitForJob(stack.api, `/contacts/bulk/${jobId}`, f.b.secretKey);
      const fits = answer === 'refused' ? res.status >= 400 && res.status < 500 : res.status < 300;
      if (!fits || leaked.length > 0) {
        wrong.push(
          `${method} ${path}: ${res.status} ${leaked.join(',')} ${res.text.slice(0, 200)}`,
        );
      }
    }
    await stack.stopWorker();
    expect(wrong).toEqual([]);
    expect(await fingerprintOfA()).toEqual(before);
  });
});
