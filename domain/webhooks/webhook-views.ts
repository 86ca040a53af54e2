import type { WebhookDeliveryRow } from '../../db/sql/webhook-deliveries.sql.js';
import type { WebhookEndpointRow } from '../../db/sql/webhook-endpoints.sql.js';
import type { WebhookDeliveryStatus } from './webhook-delivery-status.pure.js';
import type { WebhookPayload } from './webhook-rules.pure.js';

const iso = (value: Date | null): string | null => (value ? new Date(value).toISOString() : null);

export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  /** When its current run of failed attempts began; null while it succeeds. */
  failingSince: string | null;
  disabledAt: string | null;
  secretRotatedAt: string | null;
  /** Until when the secret replaced by the last rotation still signs. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toEndpointView = (row: WebhookEndpointRow): WebhookEndpointView => ({
  id: row.id,
  url: row.url,
  description: row.description,
  eventTypes: row.event_types,
  enabled: row.enabled,
  failingSince: iso(row.failing_since),
  disabledAt: iso(row.disabled_at),
  secretRotatedAt: iso(row.secret_rotated_at),
  previousSecretExpiresAt:
    row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) > new Date()
      ? iso(row.previous_secret_expires_at)
      : null,
  createdAt: iso(row.created_at) as string,
  updatedAt: iso(row.updated_at) as string,
});

export interface WebhookDeliveryView {
  /** Also the `webhook-id` header of every attempt. */
  id: string;
  endpointId: string;
  eventId: string | null;
  type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** When the next attempt is due (PENDING only). */
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  responseStatus: number | null;
  /** The first 1 KB of the last answer. */
  responseBody: string | null;
  latencyMs: number | null;
  error: string | null;
  deliveredAt: string | null;
  createdAt: string;
  payload: WebhookPayload;
}

export const toDeliveryView = (row: WebhookDeliveryRow): WebhookDeliveryView => ({
  id: row.id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  type: row.type,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.status === 'PENDING' ? iso(row.next_attempt_at) : null,
  lastAttemptAt: iso(row.last_attempt_at),
  responseStatus: row.response_status,
  responseBody: row.response_body,
  latencyMs: row.latency_ms,
  error: row.last_error,
  deliveredAt: iso(row.delivered_at),
  createdAt: iso(row.created_at) as string,
  payload: row.payload,
});
