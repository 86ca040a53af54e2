import { z } from 'zod';
import { RECORD_PURPOSES, RECORD_TYPES } from '../../domain/domains/dns-records.pure.js';
import { DOMAIN_STATUSES } from '../../domain/domains/domain-status.pure.js';

export const addDomainBody = z.object({
  domain: z.string().min(1).max(253),
  // Accepted for Plunk compatibility; the project always comes from the key or session.
  projectId: z.uuid().optional(),
});
export const domainIdParams = z.object({ id: z.uuid() });
export const projectDomainsParams = z.object({ projectId: z.uuid() });

export const domainView = z.object({
  id: z.uuid(),
  domain: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  verified: z.boolean(),
  records: z.array(
    z.object({
      type: z.enum(RECORD_TYPES),
      name: z.string(),
      value: z.string(),
      purpose: z.enum(RECORD_PURPOSES),
      required: z.boolean(),
      verified: z.boolean(),
    }),
  ),
  lastError: z.string().nullable(),
  lastCheckedAt: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  createdAt: z.string(),
});
