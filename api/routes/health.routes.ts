import { z } from 'zod';
import { checkReadiness, type Readiness } from '../../domain/health/readiness.js';
import { DomainError } from '../../domain/shared/errors.js';
import { defineRoute } from '../http/route.js';

/** 503 naming each part that is down; the readiness itself otherwise. */
function readyOrThrow(readiness: Readiness): Readiness {
  if (readiness.ready) return readiness;
  const down = Object.entries(readiness.checks).filter(([, up]) => !up);
  throw new DomainError('SERVICE_UNAVAILABLE', 'Not ready', {
    errors: down.map(([name]) => ({
      field: name,
      message: `${name} is unreachable`,
      code: 'unreachable',
    })),
  });
}

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
      const { checks } = readyOrThrow(await checkReadiness({ sql, engine: deps.engine }));
      return { status: 'ready', checks: { database: checks.database, temporal: checks.temporal } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/health/ready',
    summary:
      'Which parts are up: PostgreSQL and Temporal decide readiness (503 when either is down); `worker` says whether a worker polls the task queue',
    tag: 'Operations',
    auth: 'none',
    rateLimit: false,
    response: z.object({
      status: z.literal('ready'),
      checks: z.object({ database: z.boolean(), temporal: z.boolean(), worker: z.boolean() }),
    }),
    handler: async ({ sql, deps }) => {
      const { checks } = readyOrThrow(await checkReadiness({ sql, engine: deps.engine }));
      return { status: 'ready', checks };
    },
  }),
];
