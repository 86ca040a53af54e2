import { z } from 'zod';
import { CAMPAIGN_STATUSES } from '../../domain/campaigns/campaign-status.pure.js';
import { FIELD_KINDS, FIELD_TYPES } from '../../domain/contacts/field-type.pure.js';
import { SUBSCRIPTION_STATES } from '../../domain/contacts/subscription-state.pure.js';
import { JOB_STATUSES } from '../../domain/jobs/job-status.pure.js';
import { JOB_TYPES } from '../../domain/jobs/job-type.pure.js';
import { BULK_MAX_IDS } from '../../domain/jobs/jobs.service.js';
import { cursorQuery } from '../http/pagination.js';
import { optionalBooleanQuery } from '../http/query-flags.js';

export const LOOKUP_MAX_EMAILS = 500;

export const contactData = z.record(z.string().max(200), z.unknown());
export const contactIdParams = z.object({ id: z.uuid() });
export const fieldParams = z.object({ field: z.string().min(1).max(200) });
export const jobIdParams = z.object({ jobId: z.uuid() });

export const listContactsQuery = cursorQuery.extend({
  search: z.string().trim().max(254).optional(),
  subscribed: optionalBooleanQuery,
  subscriptionState: z
    .enum(SUBSCRIPTION_STATES)
    .optional()
    .describe('`pending`: waiting for a double opt-in confirmation'),
});

export const upsertContactBody = z.object({
  email: z.email().max(254),
  subscribed: z.boolean().optional(),
  data: contactData.optional(),
});

export const updateContactBody = z
  .object({
    email: z.email().max(254).optional(),
    subscribed: z.boolean().optional(),
    data: contactData.optional(),
  })
  .strict();

export const lookupBody = z.object({
  emails: z.array(z.string().max(254)).min(1).max(LOOKUP_MAX_EMAILS),
});
export const bulkBody = z.object({ contactIds: z.array(z.uuid()).min(1).max(BULK_MAX_IDS) });

export const contactView = z.object({
  id: z.uuid(),
  email: z.string(),
  subscribed: z.boolean(),
  subscriptionState: z
    .enum(SUBSCRIPTION_STATES)
    .describe('`pending`: asked to subscribe, waiting for its double opt-in confirmation'),
  optIn: z
    .object({ requestedAt: z.string().nullable(), confirmedAt: z.string().nullable() })
    .describe('When a double opt-in confirmation was last asked for and last given'),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const cursorList = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    cursor: z.string().nullable(),
    hasMore: z.boolean(),
    total: z.number().int(),
  });

export const jobView = z.object({
  id: z.uuid(),
  type: z.enum(JOB_TYPES),
  status: z.enum(JOB_STATUSES),
  progress: z.object({ processed: z.number().int(), total: z.number().int().nullable() }),
  result: z.object({
    created: z.number().int(),
    updated: z.number().int(),
    skipped: z.number().int(),
    failed: z.number().int(),
    deleted: z.number().int().optional(),
    errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
  }),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  workflowId: z.string(),
});

export const jobAccepted = z.object({ jobId: z.uuid(), status: z.enum(JOB_STATUSES) });

export const fieldList = z.object({
  fields: z.array(
    z.object({
      name: z.string(),
      kind: z.enum(FIELD_KINDS),
      type: z.enum(FIELD_TYPES),
      coverage: z.number(),
    }),
  ),
});

export const fieldValues = z.object({
  field: z.string(),
  values: z.array(z.object({ value: z.unknown(), count: z.number().int() })),
});

const named = z.object({ id: z.uuid(), name: z.string() });
export const fieldUsageView = z.object({
  field: z.string(),
  segments: z.array(named),
  campaigns: z.array(named.extend({ status: z.enum(CAMPAIGN_STATUSES) })),
  workflows: z.array(named.extend({ enabled: z.boolean() })),
});
