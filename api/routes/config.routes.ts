import { z } from 'zod';
import { defineRoute } from '../http/route.js';

const featuresSchema = z.object({
  features: z.object({
    signup: z.boolean(),
    oauth: z.object({ github: z.boolean(), google: z.boolean() }),
    billing: z.boolean(),
    storage: z.boolean(),
    smtp: z.boolean(),
    tracking: z.boolean(),
  }),
});

export const configRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/config',
    summary: 'Feature flags of this installation (no authentication)',
    tag: 'Configuration',
    auth: 'none',
    response: featuresSchema,
    handler: async ({ deps }) => ({ features: deps.features }),
  }),
];
