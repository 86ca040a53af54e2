import { z } from 'zod';
import { checkReadiness } from '../../domain/health/readiness.js';
import { DomainError } from '../../domain/shared/errors.js';
import { defineRoute } from '../http/route.js';

export const healthRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/health',
    summary: 'Liveness: the process answers',
    tag: 'Operations',
    auth: 'none',
    rateLimit: false,
    response: z.object({ status: z.literal('ok') }),
    handler: async () => ({ status: 'ok' }),
  }),
  defineRoute({
    method: 'get',
    path: '/ready',
    summary: 'Readiness: PostgreSQL and Temporal are reachable',
    tag: 'Operations',
    auth: 'none',
    rateLimit: false,
    response: z.object({
      status: z.literal('ready'),
      checks: z.object({ database: z.boolean(), temporal: z.boolean() }),
    }),
    handler: async ({ sql, deps }) => {
      const readiness = await checkReadiness({ sql, engine: deps.engine });
      if (!readiness.ready) {
        const down = Object.entries(readiness.checks).filter(([, ok]) => !ok);
        throw new DomainError('SERVICE_UNAVAILABLE', 'Not ready', {
          errors: down.map(([name]) => ({
            field: name,
            message: `${name} is unreachable`,
            code: 'unreachable',
          })),
        });
      }
      return { status: 'ready', checks: readiness.checks };
    },
  }),
];
