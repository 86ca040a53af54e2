import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

// Every route this issue implements. A route added without documentation fails here.
const IMPLEMENTED = [
  'GET /health',
  'GET /ready',
  'GET /health/ready',
  'GET /config',
  'GET /openapi.json',
  'GET /docs',
  'POST /auth/login',
  'POST /auth/signup',
  'GET /auth/logout',
  'GET /auth/oauth-config',
  'POST /auth/verify-email',
  'POST /auth/request-verification',
  'POST /auth/request-password-reset',
  'POST /auth/reset-password',
  'GET /users/@me',
  'GET /users/@me/projects',
  'POST /users/@me/projects',
  'PATCH /users/@me/projects/{id}',
  'POST /users/@me/projects/{id}/regenerate-keys',
  'GET /users/@me/projects/{id}/security',
  'POST /users/@me/projects/{id}/reset',
  'DELETE /users/@me/projects/{id}',
  'GET /projects/{id}/setup-state',
  'GET /projects/{id}/security',
  'GET /projects/{id}/members',
  'POST /projects/{id}/members',
  'PATCH /projects/{id}/members/{userId}',
  'DELETE /projects/{id}/members/{userId}',
  'POST /v1/track',
  'POST /v1/subscribe',
  'GET /double-opt-in',
  'PUT /double-opt-in',
  'GET /confirm-subscription/{token}',
  'POST /confirm-subscription/{token}',
  'POST /confirm-subscription/{token}/resend',
  'POST /v1/send',
  'POST /v1/verify',
  'GET /contacts',
  'POST /contacts',
  'GET /contacts/{id}',
  'PATCH /contacts/{id}',
  'DELETE /contacts/{id}',
  'POST /contacts/lookup',
  'GET /contacts/fields',
  'GET /contacts/fields/{field}/values',
  'GET /contacts/fields/{field}/usage',
  'DELETE /contacts/fields/{field}',
  'POST /contacts/import',
  'GET /contacts/import/{jobId}',
  'POST /contacts/bulk-subscribe',
  'POST /contacts/bulk-unsubscribe',
  'POST /contacts/bulk-delete',
  'GET /contacts/bulk/{jobId}',
  'POST /events/track',
  'GET /events',
  'GET /events/stats',
  'GET /events/contact/{contactId}',
  'GET /events/names',
  'GET /events/{eventName}/usage',
  'DELETE /events/{eventName}',
  'POST /domains',
  'GET /domains/project/{projectId}',
  'GET /domains/{id}/verify',
  'DELETE /domains/{id}',
  'GET /templates',
  'POST /templates',
  'GET /templates/{id}',
  'PATCH /templates/{id}',
  'DELETE /templates/{id}',
  'POST /templates/{id}/duplicate',
  'GET /templates/{id}/usage',
  'POST /uploads/image',
  'GET /uploads/{key}',
  'GET /segments',
  'POST /segments',
  'GET /segments/{id}',
  'PATCH /segments/{id}',
  'DELETE /segments/{id}',
  'GET /segments/{id}/usage',
  'GET /segments/{id}/contacts',
  'POST /segments/{id}/members',
  'DELETE /segments/{id}/members',
  'POST /segments/{id}/compute',
  'POST /segments/{id}/refresh',
  'GET /workflows',
  'GET /workflows/fields',
  'POST /workflows',
  'GET /workflows/{id}',
  'PATCH /workflows/{id}',
  'DELETE /workflows/{id}',
  'POST /workflows/{id}/steps',
  'PATCH /workflows/{id}/steps/{stepId}',
  'DELETE /workflows/{id}/steps/{stepId}',
  'POST /workflows/{id}/transitions',
  'DELETE /workflows/{id}/transitions/{transitionId}',
  'POST /workflows/{id}/executions',
  'GET /workflows/{id}/executions',
  'GET /workflows/{id}/executions/{executionId}',
  'DELETE /workflows/{id}/executions/{executionId}',
  'POST /workflows/{id}/executions/cancel-all',
  'GET /campaigns',
  'POST /campaigns',
  'GET /campaigns/{id}',
  'PUT /campaigns/{id}',
  'DELETE /campaigns/{id}',
  'POST /campaigns/{id}/duplicate',
  'POST /campaigns/{id}/send',
  'POST /campaigns/{id}/cancel',
  'POST /campaigns/{id}/test',
  'GET /campaigns/{id}/stats',
  'GET /t/o/{token}',
  'GET /t/c/{token}',
  'GET /unsubscribe/{token}',
  'POST /unsubscribe/{token}',
  'GET /subscribe/{token}',
  'POST /subscribe/{token}',
  'GET /manage/{token}',
  'POST /webhooks/email',
  'POST /webhooks/ses',
  'POST /webhooks/incoming/stripe',
  'POST /users/@me/projects/{id}/checkout',
  'POST /users/@me/projects/{id}/billing-portal',
  'GET /users/@me/projects/{id}/billing-limits',
  'PUT /users/@me/projects/{id}/billing-limits',
  'GET /users/@me/projects/{id}/billing-consumption',
  'GET /users/@me/projects/{id}/billing-invoices',
  'GET /activity',
  'GET /activity/stats',
  'GET /activity/recent-count',
  'GET /activity/types',
  'GET /activity/upcoming',
  'GET /analytics/timeseries',
  'GET /analytics/top-campaigns',
  'GET /analytics/campaign-stats',
  'GET /analytics/top-events',
  'GET /emails/{id}',
];

describe('OpenAPI document and reference page', () => {
  it('is a valid OpenAPI 3.1 document listing every implemented route', async () => {
    const res = await stack.api.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');

    const listed = Object.entries(
      res.body.paths as Record<string, Record<string, unknown>>,
    ).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    for (const route of IMPLEMENTED) expect(listed, route).toContain(route);
  });

  it('documents request bodies from the validation schemas', async () => {
    const doc = (await stack.api.get('/openapi.json')).body;
    const signup = doc.paths['/auth/signup'].post.requestBody.content['application/json'].schema;
    expect(signup.required).toEqual(expect.arrayContaining(['email', 'password']));
    expect(signup.properties.password.minLength).toBe(8);
    const members = doc.paths['/projects/{id}/members/{userId}'].patch;
    expect(members.parameters.map((p: { name: string }) => p.name)).toEqual(['id', 'userId']);
  });

  it('renders /docs from local assets only', async () => {
    const page = await stack.api.get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(source.startsWith('/'), source).toBe(true);
      const asset = await stack.api.get(source);
      expect(asset.status, source).toBe(200);
      expect(asset.text.length).toBeGreaterThan(100);
    }
    expect(page.text).toContain('/openapi.json');
  });
});
