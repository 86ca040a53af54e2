import type { Sql } from '../../db/sql/sql.js';
import {
  findWebhookDelivery,
  insertWebhookDelivery,
  retryFailedWebhookDeliveries as retryFailedRows,
  retryWebhookDelivery as retryDeliveryRow,
  webhookDeliveryLog,
  type WebhookDeliveryRow,
} from '../../db/sql/webhook-deliveries.sql.js';
import { conflict, requireFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { newestFirstPage, type CursorPage, type PageRequest } from '../shared/pagination.js';
import type { WebhookDeliveryStatus } from './webhook-delivery-status.pure.js';
import {
  requireEndpoint,
  type EndpointRef,
  type WebhookSettings,
} from './webhook-endpoints.service.js';
import { testEventPayload } from './webhook-rules.pure.js';
import { toDeliveryView, type WebhookDeliveryView } from './webhook-views.js';

/** An endpoint that is disabled sends nothing: a test or a retry would wait for ever. */
async function requireEnabledEndpoint(sql: Sql, ref: EndpointRef): Promise<void> {
  const endpoint = await requireEndpoint(sql, ref);
  if (!endpoint.enabled) {
    throw conflict('The endpoint is disabled', 'Enable it first (PATCH with enabled: true).');
  }
}

/** The endpoint's delivery log, newest first, of the given statuses only when some are given. */
export async function listWebhookDeliveries({
  sql,
  statuses,
  limit,
  cursor,
  ...ref
}: EndpointRef &
  PageRequest & {
    sql: Sql;
    statuses?: WebhookDeliveryStatus[];
  }): Promise<CursorPage<WebhookDeliveryView>> {
  await requireEndpoint(sql, ref);
  const filter = { endpointId: ref.endpointId, statuses };
  return newestFirstPage<WebhookDeliveryRow, WebhookDeliveryView>(
    { limit, cursor },
    {
      rows: ({ afterId, limit: n }) =>
        webhookDeliveryLog.list(sql, { ...filter, afterId, limit: n }),
      count: () => webhookDeliveryLog.count(sql, filter),
      view: toDeliveryView,
    },
  );
}

export async function getWebhookDelivery({
  sql,
  deliveryId,
  ...ref
}: EndpointRef & { sql: Sql; deliveryId: string }): Promise<WebhookDeliveryView> {
  await requireEndpoint(sql, ref);
  const row = await findWebhookDelivery(sql, { endpointId: ref.endpointId, deliveryId });
  return toDeliveryView(requireFound(row, 'Webhook delivery'));
}

/** One delivery sent again now, once (same `webhook-id`); 409 while it is still PENDING. */
export async function retryWebhookDelivery({
  settings,
  deliveryId,
  ...ref
}: EndpointRef & { settings: WebhookSettings; deliveryId: string }): Promise<WebhookDeliveryView> {
  const { sql, queue } = settings;
  await requireEnabledEndpoint(sql, ref);
  const found = requireFound(
    await findWebhookDelivery(sql, { endpointId: ref.endpointId, deliveryId }),
    'Webhook delivery',
  );
  const row = await retryDeliveryRow(sql, { endpointId: ref.endpointId, deliveryId, queue });
  if (!row) {
    throw conflict(`The delivery is ${found.status} already`, 'Wait for its next attempt.');
  }
  settings.webhookNotifier.queued(queue);
  return toDeliveryView(row);
}

/** Every FAILED delivery queued since `since` sent again now, once each. */
export async function retryFailedWebhookDeliveries({
  settings,
  since,
  ...ref
}: EndpointRef & { settings: WebhookSettings; since: Date }): Promise<{ retried: number }> {
  const { sql, queue } = settings;
  await requireEnabledEndpoint(sql, ref);
  const retried = await retryFailedRows(sql, { endpointId: ref.endpointId, since, queue });
  if (retried > 0) settings.webhookNotifier.queued(queue);
  return { retried };
}

/** Queues a `webhook.test` event for the endpoint alone; it shows in the log like any delivery. */
export async function sendWebhookTestEvent({
  settings,
  ...ref
}: EndpointRef & { settings: WebhookSettings }): Promise<WebhookDeliveryView> {
  const { sql, queue } = settings;
  await requireEnabledEndpoint(sql, ref);
  const row = await insertWebhookDelivery(sql, {
    id: newId(),
    projectId: ref.projectId,
    endpointId: ref.endpointId,
    payload: testEventPayload({ endpointId: ref.endpointId, now: new Date() }),
    queue,
  });
  settings.webhookNotifier.queued(queue);
  return toDeliveryView(row);
}
