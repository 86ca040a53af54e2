import { z } from 'zod';
import {
  SOFT_BOUNCE_LIMIT_MAX,
  SOFT_BOUNCE_WINDOW_DAYS_MAX,
  SUPPRESSION_REASONS,
} from '../../domain/sending/bounce-policy.pure.js';
import { cursorQuery } from '../http/pagination.js';

export const listSuppressionsQuery = cursorQuery.extend({
  reason: z.enum(SUPPRESSION_REASONS).optional(),
});

export const suppressionParams = z.object({ email: z.email().max(254) });

export const suppressionView = z.object({
  email: z.string(),
  reason: z.enum(SUPPRESSION_REASONS),
  createdAt: z.string(),
  source: z
    .string()
    .nullable()
    .meta({ description: 'relay, dsn, arf, ses or webhook; null for entries older than this' }),
  detail: z
    .record(z.string(), z.unknown())
    .nullable()
    .meta({ description: '{code?, status?, diagnostic?}: the SMTP answer or report behind it' }),
  emailId: z.uuid().nullable(),
});

export const suppressionPage = z.object({
  data: z.array(suppressionView),
  cursor: z.string().nullable(),
  hasMore: z.boolean(),
  total: z.number().int().describe('On the first page only (0 after)'),
});

export const bouncePolicyView = z.object({
  suppressHardBounces: z.boolean(),
  softBounceLimit: z.number().int(),
  softBounceWindowDays: z.number().int(),
});

export const bouncePolicyBody = z.strictObject({
  suppressHardBounces: z.boolean().optional(),
  softBounceLimit: z.number().int().min(1).max(SOFT_BOUNCE_LIMIT_MAX).optional(),
  softBounceWindowDays: z.number().int().min(1).max(SOFT_BOUNCE_WINDOW_DAYS_MAX).optional(),
});
