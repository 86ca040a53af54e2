import { bodyParser } from '@koa/bodyparser';
import type Router from '@koa/router';
import Koa, { type Context } from 'koa';
import type { Em } from '../domain/shared/ports.js';
import type { AppDeps } from './deps.js';
import { dashboard } from './http/dashboard.js';
import { firstSegmentRouters } from './http/first-segment-routers.js';
import { buildOpenApi } from './http/openapi.js';
import type { AnyRoute } from './http/route.js';
import { refuseTooDeepBody, storableInput } from './http/storable-input.js';
import { parseOrThrow } from './http/validation.js';
import { accessLog } from './middleware/access-log.js';
import { authenticate, authorise } from './middleware/authenticate.js';
import { errorEnvelope } from './middleware/error-envelope.js';
import { originCheck } from './middleware/origin-check.js';
import { enforceRateLimit } from './middleware/rate-limit.js';
import { requestId } from './middleware/request-id.js';
import { docsRoutes } from './routes/docs.routes.js';
import { resourceRoutes } from './routes/index.js';

const DEFAULT_BODY_LIMIT = '1mb';

function mount(router: Router, route: AnyRoute, deps: AppDeps): void {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: route.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // A route with a body reads it whatever its method (DELETE /segments/:id/members has one).
    parsedMethods: [route.method.toUpperCase()],
    encoding: 'utf-8',
    // Let the error envelope translate parse failures (400) and oversize bodies (413).
    onError: (error) => {
      throw error;
    },
  });
  const handle = async (ctx: Context): Promise<void> => {
    // Forked on first use: most hot routes (track, send, lists) use hand-written SQL only.
    let forked: Em | undefined;
    const em = (): Em => (forked ??= deps.orm.em.fork());
    const auth = await authenticate({ ctx, em, deps, mode: route.auth });
    ctx.state.auth = auth;
    if (route.rateLimit !== false) await enforceRateLimit({ ctx, limiter: deps.rateLimiter, auth });
    if (route.role) authorise({ auth, role: route.role });
    // Before any schema or handler: a body too deep to walk, and text PostgreSQL cannot store,
    // are refused (or that text cleaned) here once.
    const parsedBody = (ctx.request as { body?: unknown }).body;
    refuseTooDeepBody(parsedBody);
    const input = storableInput(
      { params: ctx.params, query: ctx.query, body: parsedBody },
      route.unstorableText ?? 'refuse',
    );
    const params = route.params ? parseOrThrow(route.params, input.params, 'params') : {};
    const query = route.query ? parseOrThrow(route.query, input.query, 'query') : {};
    const body = route.body ? parseOrThrow(route.body, input.body ?? {}) : undefined;
    const result = await route.handler({
      params,
      query,
      body,
      get em() {
        return em();
      },
      sql: deps.sql,
      auth,
      deps,
      ctx,
    });
    if (ctx.body !== undefined && result === undefined) return; // the handler answered itself
    ctx.status = route.status ?? 200;
    if (ctx.status !== 204) ctx.body = result;
  };
  const stack = route.body ? [parse, handle] : [handle];
  router[route.method](route.path, ...stack);
}

export function createApp({ deps }: { deps: AppDeps }): Koa {
  const app = new Koa({ proxy: deps.http.trustProxy });
  // Koa's own error printer would log bodies; errors are logged by the envelope middleware.
  app.silent = true;

  const routes: AnyRoute[] = [...resourceRoutes(), ...docsRoutes({ document: () => openApi })];
  const openApi = buildOpenApi({ routes, serverUrl: deps.http.publicUrl });
  const router = firstSegmentRouters(routes, (segmentRouter, route) =>
    mount(segmentRouter, route, deps),
  );

  app.use(requestId());
  app.use(accessLog(deps.logger));
  app.use(errorEnvelope(deps.logger));
  app.use(originCheck(deps.http));
  app.use(dashboard());
  app.use(router);
  return app;
}
