// What a webhook endpoint may be, and the events it may ask for. Pure.

/** Endpoints per project. */
export const WEBHOOK_ENDPOINTS_MAX = 20;
/** Event types one endpoint names. */
export const WEBHOOK_EVENT_TYPES_MAX = 100;
export const WEBHOOK_URL_LENGTH_MAX = 2048;
export const WEBHOOK_DESCRIPTION_LENGTH_MAX = 200;
/** How long the previous secret keeps signing after a rotation, unless the caller says. */
export const SECRET_OVERLAP_SECONDS_DEFAULT = 24 * 3600;
export const SECRET_OVERLAP_SECONDS_MAX = 7 * 24 * 3600;

/** The type of the event "send a test event" delivers (never a tracked or service event). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/**
 * The service's events an endpoint may ask for by name, as the dashboard offers them; tracked
 * events (any name) and segment entries and exits (`segment.<slug>.entry|exit`) are named too.
 */
export const SERVICE_WEBHOOK_EVENTS = [
  'email.sent',
  'email.delivered',
  'email.opened',
  'email.clicked',
  'email.bounced',
  'email.complained',
  'email.failed',
  'contact.subscribed',
  'contact.unsubscribed',
] as const;

/** What a webhook request carries: `{type, timestamp, data}` (Standard Webhooks' shape). */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The body of a test event sent to an endpoint. */
export function testEventPayload({
  endpointId,
  now,
}: {
  endpointId: string;
  now: Date;
}): WebhookPayload {
  return {
    type: WEBHOOK_TEST_EVENT,
    timestamp: now.toISOString(),
    data: { endpointId, message: 'A test event from Mailwright: this endpoint is reachable.' },
  };
}
