import { z } from 'zod';
import { verifyEmailAddress } from '../../domain/verification/verify-email.service.js';
import { defineRoute } from '../http/route.js';

const verificationResult = z.object({
  email: z.string(),
  valid: z.boolean(),
  isDisposable: z.boolean(),
  isAlias: z.boolean(),
  isTypo: z.boolean(),
  isPlusAddressed: z.boolean(),
  isPersonalEmail: z.boolean(),
  domainExists: z.boolean(),
  hasWebsite: z.boolean(),
  hasMxRecords: z.boolean(),
  suggestion: z.string().optional(),
  reasons: z.array(z.string()),
});

export const verifyRoutes = () => [
  defineRoute({
    method: 'post',
    path: '/v1/verify',
    summary:
      'Check an address: disposable, typo, role or plus alias, free provider, DNS (secret key)',
    tag: 'Public API',
    auth: 'project',
    body: z.object({ email: z.email().max(254) }),
    response: z.object({ success: z.literal(true), data: verificationResult }),
    handler: async ({ deps, body }) => ({
      success: true,
      data: await verifyEmailAddress({ email: body.email, dns: deps.dns }),
    }),
  }),
];
