import type { Context } from 'koa';
import getRawBody from 'raw-body';

/** The body as text whatever its content type (SNS posts JSON as text/plain). */
export function readRawText(ctx: Context, limit = '256kb'): Promise<string> {
  return getRawBody(ctx.req, { limit, encoding: 'utf8' });
}
