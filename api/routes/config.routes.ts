import { z } from 'zod';
import { defineRoute } from '../http/route.js';

const configSchema = z.object({
  features: z.object({
    signup: z.boolean(),
    oauth: z.object({ github: z.boolean(), google: z.boolean() }),
    billing: z.boolean(),
    storage: z.boolean(),
    smtp: z.boolean(),
    tracking: z.boolean(),
  }),
  // The dashboard links a job's run to `${temporalUiUrl}/namespaces/${temporalNamespace}/workflows/<workflowId>`.
  temporalUiUrl: z.string().nullable(),
  temporalNamespace: z.string(),
});

export const configRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/config',
    summary: 'Feature flags of this installation and its Temporal UI address (no authentication)',
    tag: 'Configuration',
    auth: 'none',
    response: configSchema,
    handler: async ({ deps }) => ({
      features: deps.features,
      temporalUiUrl: deps.temporalUi.url,
      temporalNamespace: deps.temporalUi.namespace,
    }),
  }),
];
