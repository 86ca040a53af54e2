import Router from '@koa/router';
import type { AnyRoute } from './route.js';

type RouterMiddleware = ReturnType<Router['routes']>;

/** `contacts` of `/contacts/:id`; lower case, as the router matches paths without case. */
export const firstSegmentOf = (path: string): string => (path.split('/', 2)[1] ?? '').toLowerCase();

/**
 * The routes as one router per first path segment, picked by a map lookup: the router tests a
 * request against every route it holds in turn (a regular expression each), and with all the
 * routes in one it spent more per request than the track handler's own code. Every route's
 * first segment must be literal, so that a request can only match routes of its own segment.
 */
export function firstSegmentRouters(
  routes: readonly AnyRoute[],
  mount: (router: Router, route: AnyRoute) => void,
): RouterMiddleware {
  const routers = new Map<string, Router>();
  for (const route of routes) {
    const segment = firstSegmentOf(route.path);
    if (/[:*(]/.test(segment)) throw new Error(`${route.path}: its first segment is not literal`);
    let router = routers.get(segment);
    if (!router) routers.set(segment, (router = new Router()));
    mount(router, route);
  }
  const dispatch = new Map<string, RouterMiddleware>(
    [...routers].map(([segment, router]) => [segment, router.routes()]),
  );
  return (ctx, next) => {
    const routes = dispatch.get(firstSegmentOf(ctx.path));
    return routes ? routes(ctx, next) : next();
  };
}
