import { z } from 'zod';
import { EMAIL_TYPES } from '../../domain/sending/email-type.pure.js';
import {
  trackingOverride,
  trackingOverrideView,
} from '../../domain/tracking/tracking-input.pure.js';

const noLineBreaks = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((v) => !/[\r\n]/.test(v), { message: 'Line breaks are not allowed' });

const templateFields = {
  name: z.string().trim().min(1).max(200),
  subject: noLineBreaks(998),
  body: z
    .string()
    .min(1)
    .max(512 * 1024),
  type: z.enum(EMAIL_TYPES),
  from: z.email().max(254),
  fromName: noLineBreaks(200).nullable(),
  replyTo: z.email().max(254).nullable(),
};

export const createTemplateBody = z.object({
  ...templateFields,
  type: templateFields.type.default('MARKETING'),
  fromName: templateFields.fromName.optional(),
  replyTo: templateFields.replyTo.optional(),
  tracking: trackingOverride.optional(),
});

export const updateTemplateBody = z
  .object({
    name: templateFields.name.optional(),
    subject: templateFields.subject.optional(),
    body: templateFields.body.optional(),
    type: templateFields.type.optional(),
    from: templateFields.from.optional(),
    fromName: templateFields.fromName.optional(),
    replyTo: templateFields.replyTo.optional(),
    tracking: trackingOverride
      .optional()
      .meta({ description: 'Changes only the kinds it names; null hands one back to the project' }),
  })
  .strict();

export const listTemplatesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  cursor: z.string().min(1).max(512).optional(),
  type: z.enum(EMAIL_TYPES).optional(),
  search: z.string().trim().max(200).optional(),
});

export const templateIdParams = z.object({ id: z.uuid() });

export const templateView = z.object({
  id: z.uuid(),
  name: z.string(),
  subject: z.string(),
  body: z.string(),
  type: z.enum(EMAIL_TYPES),
  from: z.string(),
  fromName: z.string().nullable(),
  replyTo: z.string().nullable(),
  tracking: trackingOverrideView.describe(
    "Its own open and click tracking; null where the project's setting decides",
  ),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const previewTemplateBody = z.object({
  subject: z.string().max(998),
  body: z.string().max(512 * 1024),
  data: z.record(z.string().max(200), z.unknown()).optional(),
});

export const templatePreviewView = z.object({ subject: z.string(), html: z.string() });
