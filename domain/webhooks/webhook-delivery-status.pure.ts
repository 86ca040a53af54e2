/**
 * Where a delivery to a webhook endpoint stands: PENDING until an attempt succeeds (SUCCEEDED)
 * or its retries run out (FAILED). A retry asked for by hand makes it PENDING again.
 */
export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
