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
  // Where apps send over SMTP (features.smtp): any username, the project's secret key as password.
  smtpSubmission: z
    .object({
      host: z.string(),
      port: z.number().int().nullable().meta({ description: 'The STARTTLS port, when it listens' }),
      tlsPort: z
        .number()
        .int()
        .nullable()
        .meta({ description: 'The implicit-TLS port, when it listens' }),
      certificateSha256: z.string().meta({
        description: "SHA-256 fingerprint of the servers' certificate (to check a self-signed one)",
      }),
    })
    .nullable(),
});

export const configRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/config',
    summary:
      'Feature flags of this installation, its Temporal UI address and SMTP submission (no authentication)',
    tag: 'Configuration',
    auth: 'none',
    response: configSchema,
    handler: async ({ deps }) => ({
      features: deps.features,
      temporalUiUrl: deps.temporalUi.url,
      temporalNamespace: deps.temporalUi.namespace,
      smtpSubmission: deps.smtpSubmission,
    }),
  }),
];
