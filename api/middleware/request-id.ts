import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { withRequestContext } from '../http/request-context.js';

const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Reuses a sane incoming X-Request-Id (so traces join up), otherwise makes one. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const id = SANE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await withRequestContext({ requestId: id, method: ctx.method, path: ctx.path }, next);
  };
}
