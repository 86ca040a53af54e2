import { z } from 'zod';
import {
  ACTIVITY_TYPES,
  CAMPAIGN_METRICS,
  GRANULARITIES,
  SERIES,
} from '../../domain/insights/activity-type.pure.js';
import { EMAIL_STATUSES } from '../../domain/sending/email-status.pure.js';
import { EMAIL_TYPES } from '../../domain/sending/email-type.pure.js';
import { notTracked, trackingChoiceView } from '../../domain/tracking/tracking-input.pure.js';
import { cursorQuery } from '../http/pagination.js';

const instant = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

/** `from` and `to` as ISO date-times; the domain checks the window (from <= to, <= 366 days). */
export const windowQuery = z.object({ from: instant.optional(), to: instant.optional() });

export const activityQuery = cursorQuery.extend({
  type: z
    .string()
    .max(200)
    .transform((s) => s.split(',').map((t) => t.trim()))
    .pipe(z.array(z.enum(ACTIVITY_TYPES)).min(1))
    .optional()
    .meta({ description: `One or more of ${ACTIVITY_TYPES.join(', ')}, comma-separated` }),
  from: instant.optional(),
  to: instant.optional(),
  contactId: z.uuid().optional(),
  campaignId: z.uuid().optional(),
});

export const recentCountQuery = z.object({
  minutes: z.coerce.number().int().min(1).max(1440).default(60),
});

export const limitQuery = (fallback: number) =>
  z.object({ limit: z.coerce.number().int().min(1).max(100).default(fallback) });

export const timeseriesQuery = windowQuery.extend({
  granularity: z.enum(GRANULARITIES).default('day'),
});

export const topCampaignsQuery = limitQuery(10).extend({
  metric: z.enum(CAMPAIGN_METRICS).default('sent'),
});

export const topEventsQuery = windowQuery.extend(limitQuery(10).shape);

const counts = z.object(Object.fromEntries(ACTIVITY_TYPES.map((t) => [t, z.number().int()])));

export const activityItemView = z.object({
  id: z.uuid(),
  type: z.enum(ACTIVITY_TYPES),
  occurredAt: z.string(),
  contact: z.object({ id: z.uuid(), email: z.string().nullable() }),
  emailId: z.string().nullable(),
  subject: z.string().nullable(),
  campaign: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  workflow: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  data: z.record(z.string(), z.unknown()),
});

export const activityStatsView = z.object({
  from: z.string(),
  to: z.string(),
  counts,
  total: z.number().int(),
});

export const upcomingView = z.object({
  campaigns: z.array(z.object({ id: z.uuid(), name: z.string(), scheduledFor: z.string() })),
  executions: z.array(
    z.object({
      id: z.uuid(),
      workflow: z.object({ id: z.uuid(), name: z.string() }),
      contact: z.object({ id: z.uuid(), email: z.string() }),
      stepId: z.uuid().nullable(),
      stepType: z.string().nullable(),
      waitingSince: z.string().nullable(),
      wakesAt: z.string().nullable().meta({ description: 'Null: waits for its event, no timeout' }),
    }),
  ),
});

export const timeseriesView = z.object({
  from: z.string(),
  to: z.string(),
  granularity: z.enum(GRANULARITIES),
  buckets: z.array(
    z.object({
      start: z.string(),
      ...Object.fromEntries(SERIES.map((s) => [s, z.number().int()])),
    }),
  ),
});

export const campaignFiguresView = z.object({
  id: z.uuid(),
  name: z.string(),
  status: z.string(),
  startedAt: z.string().nullable(),
  sent: z.number().int(),
  delivered: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
  bounced: z.number().int(),
  complained: z.number().int(),
  unsubscribed: z.number().int(),
  openRate: notTracked(z.number(), 'opens'),
  clickRate: notTracked(z.number(), 'clicks'),
  bounceRate: z.number(),
});

export const messageIdParams = z.object({ id: z.uuid() });

const named = z.object({ id: z.uuid(), name: z.string() }).nullable();
const when = z.string().nullable();

export const messageView = z.object({
  id: z.uuid(),
  status: z.enum(EMAIL_STATUSES),
  type: z.enum(EMAIL_TYPES),
  to: z.object({ email: z.string(), name: z.string().nullable() }),
  from: z.object({ email: z.string().nullable(), name: z.string().nullable() }),
  replyTo: z.string().nullable(),
  subject: z.string(),
  messageId: z.string().nullable(),
  error: z.string().nullable(),
  suppressionReason: z.string().nullable(),
  contact: z.object({ id: z.uuid(), email: z.string().nullable() }).nullable(),
  campaign: named,
  template: named,
  workflow: named,
  executionId: z.uuid().nullable(),
  tracking: trackingChoiceView.describe(
    'Whether its opens and clicks are tracked, as chosen when it was queued',
  ),
  timestamps: z.object({
    queuedAt: when,
    sentAt: when,
    deliveredAt: when,
    openedAt: when,
    clickedAt: when,
    bouncedAt: when,
    complainedAt: when,
    unsubscribedAt: when,
  }),
  html: z.string().nullable().meta({
    description:
      'The body rendered with its variables, without tracking or subscription links; null when it fails (renderError)',
  }),
  renderError: z.string().nullable(),
  events: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      occurredAt: z.string(),
      data: z.record(z.string(), z.unknown()),
    }),
  ),
});
