import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack());
});
afterAll(async () => {
  await stop?.();
});

async function sender() {
  const fixture = await projectFixture(stack.api);
  const domain = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain('tpl'));
  return { ...fixture, domain: domain.domain };
}

describe('templates', () => {
  it('creates, reads, updates, duplicates and deletes', async () => {
    const { sk, domain } = await sender();
    const created = await stack.api.post('/templates', {
      ...sk,
      body: {
        name: 'Welcome',
        subject: 'Hi {{ firstName ?? "there" }}',
        body: '<p>Hello {{ firstName }}</p>',
        from: `hello@${domain}`,
        replyTo: `help@${domain}`,
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Welcome',
      type: 'MARKETING',
      from: `hello@${domain}`,
      replyTo: `help@${domain}`,
      fromName: null,
    });

    const id = created.body.id;
    expect((await stack.api.get(`/templates/${id}`, sk)).body.name).toBe('Welcome');
    const patched = await stack.api.patch(`/templates/${id}`, {
      ...sk,
      body: { name: 'Welcome v2', type: 'TRANSACTIONAL', fromName: 'Acme' },
    });
    expect(patched.body).toMatchObject({
      name: 'Welcome v2',
      type: 'TRANSACTIONAL',
      fromName: 'Acme',
      subject: 'Hi {{ firstName ?? "there" }}',
    });

    const copy = await stack.api.post(`/templates/${id}/duplicate`, sk);
    expect(copy.status).toBe(201);
    expect(copy.body.id).not.toBe(id);
    expect(copy.body).toMatchObject({
      name: 'Welcome v2 (copy)',
      type: 'TRANSACTIONAL',
      body: patched.body.body,
    });
    expect((await stack.api.get(`/templates/${id}/usage`, sk)).body).toEqual({
      templateId: id,
      campaigns: [],
      workflowSteps: [],
    });

    expect((await stack.api.delete(`/templates/${id}`, sk)).status).toBe(204);
    expect((await stack.api.get(`/templates/${id}`, sk)).status).toBe(404);
  });

  it('refuses a from address off the verified domains, and accepts a subdomain of one', async () => {
    const { sk, domain } = await sender();
    const base = { name: 'x', subject: 's', body: 'b' };
    const stranger = await stack.api.post('/templates', {
      ...sk,
      body: { ...base, from: 'me@not-verified.example.test' },
    });
    expect(stranger.status).toBe(422);
    expect(stranger.body.error.errors[0]).toMatchObject({
      field: 'from',
      code: 'unverified_domain',
    });
    const pending = (
      await stack.api.post('/domains', { ...sk, body: { domain: uniqueDomain('pending') } })
    ).body.domain;
    expect(
      (await stack.api.post('/templates', { ...sk, body: { ...base, from: `me@${pending}` } }))
        .status,
    ).toBe(422);
    expect(
      (await stack.api.post('/templates', { ...sk, body: { ...base, from: `me@news.${domain}` } }))
        .status,
    ).toBe(201);
    expect(
      (await stack.api.post('/templates', { ...sk, body: { ...base, from: `me@x${domain}` } }))
        .status,
    ).toBe(422);
  });

  it('checks syntax on save and names the line', async () => {
    const { sk, domain } = await sender();
    const res = await stack.api.post('/templates', {
      ...sk,
      body: {
        name: 'Broken',
        subject: 'ok',
        body: '<p>one</p>\n<p>{{ name + }}</p>',
        from: `a@${domain}`,
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.errors).toEqual([
      { field: 'body', message: expect.stringMatching(/^Line 2: /), code: 'template_syntax' },
    ]);
    const subject = await stack.api.post('/templates', {
      ...sk,
      body: { name: 'B', subject: '{% if x %}', body: 'b', from: `a@${domain}` },
    });
    expect(subject.body.error.errors[0].field).toBe('subject');
    expect((await stack.api.get('/templates', sk)).body.total).toBe(0);
  });

  it('refuses templates that could reach the server', async () => {
    const { sk, domain } = await sender();
    for (const body of [
      '{{ range.constructor("return process")() }}',
      '{{ cycler.__proto__ }}',
      '{{ x["constr" + "uctor"] }}',
      '{% include "/etc/passwd" %}',
      '{% extends "base.html" %}',
    ]) {
      const res = await stack.api.post('/templates', {
        ...sk,
        body: { name: 'evil', subject: 's', body, from: `a@${domain}` },
      });
      expect(res.status, body).toBe(422);
      expect(res.body.error.errors[0].code, body).toBe('template_unsafe');
    }
  });

  it('refuses subjects with line breaks or over 998 characters', async () => {
    const { sk, domain } = await sender();
    const make = (subject: string) =>
      stack.api.post('/templates', {
        ...sk,
        body: { name: 'n', subject, body: 'b', from: `a@${domain}` },
      });
    expect((await make('a'.repeat(998))).status).toBe(201);
    expect((await make('a'.repeat(999))).status).toBe(422);
    expect((await make('line\r\nBcc: x@y.z')).status).toBe(422);
  });

  it('lists by cursor and by page with filters', async () => {
    const { sk, domain } = await sender();
    for (let i = 0; i < 5; i += 1) {
      await stack.api.post('/templates', {
        ...sk,
        body: {
          name: `Letter ${i}`,
          subject: 's',
          body: 'b',
          from: `a@${domain}`,
          type: i % 2 ? 'TRANSACTIONAL' : 'MARKETING',
        },
      });
    }
    const first = await stack.api.get('/templates?limit=2', sk);
    expect(first.body).toMatchObject({
      total: 5,
      page: 1,
      pageSize: 2,
      totalPages: 3,
      hasMore: true,
    });
    expect(first.body.templates.map((t: { name: string }) => t.name)).toEqual([
      'Letter 4',
      'Letter 3',
    ]);
    const second = await stack.api.get(`/templates?limit=2&cursor=${first.body.cursor}`, sk);
    expect(second.body.templates.map((t: { name: string }) => t.name)).toEqual([
      'Letter 2',
      'Letter 1',
    ]);
    const page3 = await stack.api.get('/templates?page=3&pageSize=2', sk);
    expect(page3.body).toMatchObject({ page: 3, hasMore: false, cursor: null });
    expect(page3.body.templates.map((t: { name: string }) => t.name)).toEqual(['Letter 0']);
    expect((await stack.api.get('/templates?type=TRANSACTIONAL', sk)).body.total).toBe(2);
    expect((await stack.api.get('/templates?search=letter%203', sk)).body.total).toBe(1);
    expect((await stack.api.get('/templates?limit=0', sk)).status).toBe(422);
    expect((await stack.api.get('/templates?limit=101', sk)).status).toBe(422);
  });

  it('keeps a domain while a template sends from it (409)', async () => {
    const { sk, project, domain } = await sender();
    const [verified] = (await stack.api.get(`/domains/project/${project.id}`, sk)).body;
    const t = (
      await stack.api.post('/templates', {
        ...sk,
        body: { name: 'n', subject: 's', body: 'b', from: `a@news.${domain}` },
      })
    ).body;
    const refused = await stack.api.delete(`/domains/${verified.id}`, sk);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect((await stack.api.delete(`/templates/${t.id}`, sk)).status).toBe(204);
    expect((await stack.api.delete(`/domains/${verified.id}`, sk)).status).toBe(204);
  });

  it("gives 404 for another project's templates", async () => {
    const a = await sender();
    const b = await projectFixture(stack.api);
    const t = (
      await stack.api.post('/templates', {
        ...a.sk,
        body: { name: 'n', subject: 's', body: 'b', from: `a@${a.domain}` },
      })
    ).body;
    for (const [method, path] of [
      ['GET', `/templates/${t.id}`],
      ['PATCH', `/templates/${t.id}`],
      ['DELETE', `/templates/${t.id}`],
      ['POST', `/templates/${t.id}/duplicate`],
      ['GET', `/templates/${t.id}/usage`],
    ] as const) {
      expect(
        (
          await stack.api.request(method, path, {
            ...b.sk,
            body: method === 'PATCH' ? { name: 'x' } : undefined,
          })
        ).status,
        path,
      ).toBe(404);
    }
    expect((await stack.api.get('/templates', b.sk)).body.total).toBe(0);
  });
});
