import { z } from 'zod';
import { SEGMENT_TYPES } from '../../domain/segments/segment-type.pure.js';
import { pageQuery } from '../http/pagination.js';
import { contactView } from './contacts.schemas.js';
import { filterInput } from '../../domain/segments/filter/filter-input.js';

export const MEMBER_EMAILS_MAX = 500;

export const segmentIdParams = z.object({ id: z.uuid() });

const name = z.string().trim().min(1).max(200);
const description = z.string().trim().max(2000).nullable();

// The spec names the filter both `filters` and `condition`; either is accepted.
export const createSegmentBody = z.object({
  name,
  description: description.optional(),
  type: z.enum(SEGMENT_TYPES).default('DYNAMIC'),
  filters: filterInput.optional(),
  condition: filterInput.optional(),
  trackMembership: z.boolean().default(false),
});

export const PREVIEW_SAMPLE_MAX = 20;

export const previewSegmentBody = z
  .object({
    filters: filterInput.optional(),
    condition: filterInput.optional(),
    sampleSize: z
      .number()
      .int()
      .min(0)
      .max(PREVIEW_SAMPLE_MAX)
      .default(5)
      .describe('How many of the newest matching contacts to answer (0-20)'),
  })
  .refine((body) => body.filters !== undefined || body.condition !== undefined, {
    path: ['filters'],
    message: 'A filter is required (as filters or condition)',
  });

export const previewResult = z.object({
  count: z.number().int().describe('Contacts the filter matches now'),
  sample: z.array(contactView).describe('The newest of them, up to sampleSize'),
});

export const updateSegmentBody = z.object({
  name: name.optional(),
  description: description.optional(),
  filters: filterInput.optional(),
  condition: filterInput.optional(),
  trackMembership: z.boolean().optional(),
});

const filterView = z.record(z.string(), z.unknown()).nullable();

export const segmentView = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string().describe('Names the segment.<slug>.entry and .exit events'),
  description: z.string().nullable(),
  type: z.enum(SEGMENT_TYPES),
  filters: filterView,
  condition: filterView,
  trackMembership: z.boolean(),
  memberCount: z.number().int().describe('Cached: counted on create and change, refresh, compute'),
  memberCountAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const segmentContactsQuery = pageQuery;

export const segmentContactsPage = z.object({
  data: z.array(contactView),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalPages: z.number().int(),
});

const emails = z.array(z.email().max(254)).min(1).max(MEMBER_EMAILS_MAX);

export const addMembersBody = z.object({
  emails,
  createMissing: z.boolean().default(false),
  subscribed: z.boolean().default(true).describe('For contacts createMissing creates'),
});

export const removeMembersBody = z.object({ emails });

export const computeResult = z.object({
  added: z.number().int(),
  removed: z.number().int(),
  total: z.number().int(),
});
