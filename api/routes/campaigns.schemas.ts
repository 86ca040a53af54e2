import { z } from 'zod';
import { AUDIENCE_TYPES, CAMPAIGN_STATUSES } from '../../domain/campaigns/campaign-status.pure.js';
import { ACCEPTED_EMAIL_STATUSES } from '../../domain/sending/email-status.pure.js';
import { notTracked, trackingOverrideView } from '../../domain/tracking/tracking-input.pure.js';
import { cursorQuery } from '../http/pagination.js';
export { audienceBody, campaignBody } from '../../domain/campaigns/campaign-input.js';

export const campaignIdParams = z.object({ id: z.uuid() });

export const listCampaignsQuery = cursorQuery.extend({
  status: z
    .string()
    .transform((s) => s.split(',').map((part) => part.trim().toUpperCase()))
    .pipe(z.array(z.enum(CAMPAIGN_STATUSES)).min(1))
    .optional()
    .meta({ description: 'One status or several, comma-separated (SCHEDULED,SENDING)' }),
});

export const sendCampaignBody = z
  .object({
    scheduledFor: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'ISO 8601, in the future: the send waits for it (SCHEDULED)' }),
  })
  .default({});

export const testCampaignBody = z.object({ email: z.email().max(254) });

const campaignView = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  subject: z.string(),
  body: z.string(),
  from: z.string(),
  fromName: z.string().nullable(),
  replyTo: z.string().nullable(),
  templateId: z.uuid().nullable(),
  type: z.enum(AUDIENCE_TYPES).describe('The audience type, as the spec names it'),
  audienceType: z.enum(AUDIENCE_TYPES),
  segmentId: z.uuid().nullable(),
  audienceFilter: z.record(z.string(), z.unknown()).nullable(),
  tracking: trackingOverrideView.describe(
    "Its own open and click tracking; null where the template's, then the project's setting decides",
  ),
  status: z.enum(CAMPAIGN_STATUSES),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** Every campaign route answers `{success: true, data}` (decisions.md). */
const wrapped = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

export const campaignResult = wrapped(campaignView);

export const campaignPage = wrapped(
  z.object({
    campaigns: z.array(campaignView),
    total: z.number().int().describe('On the first page only (0 after)'),
    cursor: z.string().nullable(),
    hasMore: z.boolean(),
  }),
);

export const audienceResult = wrapped(
  z.object({
    matching: z.number().int().describe('Contacts the audience matches now'),
    reachable: z.number().int().describe('Of them, those a send would mail now'),
    skipped: z.number().int().describe('Of them, unsubscribed or suppressed: a send skips them'),
  }),
);

export const deletedCampaignResult = wrapped(z.object({ id: z.uuid(), deleted: z.literal(true) }));

export const testCampaignResult = wrapped(
  z.object({ emailId: z.uuid(), email: z.string(), status: z.enum(ACCEPTED_EMAIL_STATUSES) }),
);

const count = z.number().int();
const fraction = z.number().min(0).max(1);

export const campaignStatsResult = wrapped(
  z.object({
    recipients: count.describe('The audience as snapshotted when the send began'),
    sent: count,
    delivered: count,
    opened: count,
    clicked: count,
    bounced: count,
    complained: count,
    unsubscribed: count,
    failed: count,
    skipped: count.describe('Unsubscribed, suppressed or deleted recipients: never sent'),
    cancelled: count.describe('Recipients never sent to because the campaign was cancelled'),
    pending: count.describe('Recipients not yet queued'),
    queued: count.describe('Emails waiting for SMTP'),
    openRate: notTracked(fraction, 'opens'),
    clickRate: notTracked(fraction, 'clicks'),
    bounceRate: fraction,
  }),
);
