import type Router from '@koa/router';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstSegmentOf, firstSegmentRouters } from '../../api/http/first-segment-routers.js';
import { defineRoute, type AnyRoute } from '../../api/http/route.js';

const route = (method: 'get' | 'post', path: string): AnyRoute =>
  defineRoute({ method, path, summary: path, tag: 't', auth: 'none', handler: async () => path });

const answer = (router: Router, spec: AnyRoute): void => {
  router[spec.method](spec.path, (ctx) => {
    ctx.body = { route: `${spec.method} ${spec.path}`, params: ctx.params };
  });
};

describe('routes picked by their first path segment', () => {
  const app = new Koa();
  app.use(
    firstSegmentRouters(
      [
        route('get', '/contacts'),
        route('get', '/contacts/:id'),
        route('post', '/contacts/:id/events'),
        route('get', '/campaigns/:id'),
        route('post', '/v1/track'),
        route('get', '/'),
      ],
      answer,
    ),
  );
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { route: 'none' };
  });
  const server = app.listen(0, '127.0.0.1');
  let base = '';
  beforeAll(async () => {
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const call = async (method: string, path: string) =>
    (await fetch(`${base}${path}`, { method })).json() as Promise<{
      route: string;
      params?: Record<string, string>;
    }>;

  it('matches as one router did: params, methods, case, a trailing slash, the root', async () => {
    expect(await call('GET', '/contacts')).toMatchObject({ route: 'get /contacts' });
    expect(await call('GET', '/contacts/')).toMatchObject({ route: 'get /contacts' });
    expect(await call('GET', '/Contacts/abc')).toMatchObject({
      route: 'get /contacts/:id',
      params: { id: 'abc' },
    });
    expect(await call('POST', '/contacts/abc/events')).toMatchObject({
      route: 'post /contacts/:id/events',
    });
    expect(await call('POST', '/v1/track')).toMatchObject({ route: 'post /v1/track' });
    expect(await call('GET', '/')).toMatchObject({ route: 'get /' });
  });

  it('passes on what no route of its segment matches', async () => {
    expect(await call('POST', '/contacts')).toEqual({ route: 'none' });
    expect(await call('GET', '/campaigns')).toEqual({ route: 'none' });
    expect(await call('GET', '/nothing/here')).toEqual({ route: 'none' });
    expect(await call('GET', '/v1')).toEqual({ route: 'none' });
  });

  it('refuses a route whose first segment is a parameter', () => {
    expect(() => firstSegmentRouters([route('get', '/:id')], answer)).toThrow(/not literal/);
    expect(firstSegmentOf('/Contacts/x')).toBe('contacts');
    expect(firstSegmentOf('/')).toBe('');
  });
});
