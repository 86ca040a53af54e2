import type { Middleware } from 'koa';
import type { Logger } from '../../domain/shared/ports.js';

/** One line per request. The query string and headers are left out: they can carry secrets. */
export function accessLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          projectId: ctx.state.auth?.projectId,
        },
        'request',
      );
    }
  };
}
