import { z } from 'zod';
import { WEBHOOK_DELIVERY_STATUSES } from '../../domain/webhooks/webhook-delivery-status.pure.js';
import {
  SECRET_OVERLAP_SECONDS_DEFAULT,
  SECRET_OVERLAP_SECONDS_MAX,
  WEBHOOK_DESCRIPTION_LENGTH_MAX,
  WEBHOOK_EVENT_TYPES_MAX,
  WEBHOOK_URL_LENGTH_MAX,
} from '../../domain/webhooks/webhook-rules.pure.js';
import { cursorQuery } from '../http/pagination.js';

const url = z
  .string()
  .trim()
  .min(1)
  .max(WEBHOOK_URL_LENGTH_MAX)
  .meta({ description: 'http(s); private and loopback addresses are refused (400)' });
const eventTypes = z
  .array(z.string().trim().min(1).max(255))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES_MAX)
  .meta({
    description:
      'email.sent|delivered|opened|clicked|bounced|complained|failed, contact.subscribed|unsubscribed, segment.<slug>.entry|exit, or a tracked event name',
  });
const description = z.string().trim().max(WEBHOOK_DESCRIPTION_LENGTH_MAX).nullable();

export const createEndpointBody = z.strictObject({
  url,
  eventTypes,
  description: description.optional(),
  enabled: z.boolean().optional(),
});

export const updateEndpointBody = z.strictObject({
  url: url.optional(),
  eventTypes: eventTypes.optional(),
  description: description.optional(),
  enabled: z.boolean().optional(),
});

export const rotateSecretBody = z.strictObject({
  overlapSeconds: z
    .number()
    .int()
    .min(0)
    .max(SECRET_OVERLAP_SECONDS_MAX)
    .optional()
    .meta({
      description: `How long the previous secret keeps signing too (default ${SECRET_OVERLAP_SECONDS_DEFAULT}; 0 ends it now)`,
    }),
});

export const retryFailedBody = z.strictObject({
  since: z.iso.datetime({ offset: true }).meta({
    description: 'Every FAILED delivery queued at or after this time is sent again',
  }),
});

export const endpointParams = z.object({ id: z.uuid() });
export const deliveryParams = z.object({ id: z.uuid(), deliveryId: z.uuid() });

export const listDeliveriesQuery = cursorQuery.extend({
  status: z
    .string()
    .transform((s) => s.split(',').map((part) => part.trim().toUpperCase()))
    .pipe(z.array(z.enum(WEBHOOK_DELIVERY_STATUSES)).min(1))
    .optional()
    .meta({ description: 'One status or several, comma-separated (FAILED,PENDING)' }),
});

export const endpointView = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string().nullable(),
  eventTypes: z.array(z.string()),
  enabled: z.boolean(),
  failingSince: z.string().nullable().meta({
    description: 'When its current run of failed attempts began; failing for 5 days disables it',
  }),
  disabledAt: z.string().nullable(),
  secretRotatedAt: z.string().nullable(),
  previousSecretExpiresAt: z
    .string()
    .nullable()
    .meta({ description: 'Until when the secret a rotation replaced still signs' }),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const endpointWithSecret = endpointView.extend({
  secret: z.string().meta({
    description: 'The signing secret (whsec_...), shown in this answer only',
  }),
});

export const endpointList = z.object({ data: z.array(endpointView) });

export const deliveryView = z.object({
  id: z.uuid().meta({ description: 'Also the webhook-id header of every attempt' }),
  endpointId: z.uuid(),
  eventId: z.uuid().nullable(),
  type: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable().meta({ description: 'The first 1 KB of the last answer' }),
  latencyMs: z.number().int().nullable(),
  error: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
  payload: z.object({
    type: z.string(),
    timestamp: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
});

export const deliveryPage = z.object({
  data: z.array(deliveryView),
  cursor: z.string().nullable(),
  hasMore: z.boolean(),
  total: z.number().int().describe('On the first page only (0 after)'),
});
