import { z } from 'zod';
import { filterInput } from '../segments/filter/filter-input.js';
import { noLineBreaks } from '../sending/single-line-text.js';
import { SUBJECT_MAX } from '../sending/send-limits.pure.js';
import { trackingOverride } from '../tracking/tracking-input.pure.js';
import { AUDIENCE_TYPES } from './campaign-status.pure.js';

// A campaign's input, declared once: the route validates with these schemas and the use cases
// take the types inferred from them.

// decisions.md: `audienceFilter` is the segments' filter; `audienceCondition` is its alias.
export const campaignBody = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().max(2000).nullable().optional(),
  subject: noLineBreaks(SUBJECT_MAX).pipe(z.string().min(1)).optional(),
  body: z
    .string()
    .min(1)
    .max(512 * 1024)
    .optional(),
  from: z.email().max(254).optional(),
  fromName: noLineBreaks(200).nullable().optional(),
  replyTo: z.email().max(254).nullable().optional(),
  templateId: z.uuid().nullable().optional().meta({
    description: "Fills subject, body, from, fromName and replyTo where the body doesn't",
  }),
  audienceType: z.enum(AUDIENCE_TYPES),
  segmentId: z.uuid().nullable().optional().meta({ description: 'Required for SEGMENT' }),
  audienceFilter: filterInput.optional().meta({ description: 'Required for FILTERED' }),
  audienceCondition: filterInput.optional().meta({ description: 'Alias of audienceFilter' }),
  tracking: trackingOverride.optional(),
});
export type CampaignBody = z.infer<typeof campaignBody>;

export const audienceBody = campaignBody.pick({
  audienceType: true,
  segmentId: true,
  audienceFilter: true,
  audienceCondition: true,
});
export type AudienceBody = z.infer<typeof audienceBody>;

/** An audience with its filter under one name, and the body key it came in (for errors). */
export type AudienceInput = Omit<AudienceBody, 'audienceCondition'> & { filterField: string };

/** A campaign as create and PUT take it. */
export type CampaignInput = Omit<CampaignBody, 'audienceCondition'> & { filterField: string };

/** The body's audience with `audienceCondition` folded into `audienceFilter`. */
export function foldAudienceAlias<B extends AudienceBody>({
  audienceCondition,
  ...body
}: B): Omit<B, 'audienceCondition'> & { filterField: string } {
  return {
    ...body,
    audienceFilter: body.audienceFilter ?? audienceCondition,
    filterField: body.audienceFilter || !audienceCondition ? 'audienceFilter' : 'audienceCondition',
  };
}
