import type { Sql } from '../../db/sql/sql.js';
import {
  deleteWebhookEndpoint as deleteEndpointRow,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints as listEndpointRows,
  rotateWebhookSecret as rotateSecretRow,
  updateWebhookEndpoint as updateEndpointRow,
  type WebhookEndpointRow,
} from '../../db/sql/webhook-endpoints.sql.js';
import { canonicalEventName } from '../events/event-names.pure.js';
import { encryptSecret } from '../shared/encryption.js';
import { requireFound, validationError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { DnsResolver, QueueNotifier } from '../shared/ports.js';
import { checkEndpointUrl } from './endpoint-url.js';
import { newSigningSecret } from './webhook-signing.js';
import { SECRET_OVERLAP_SECONDS_DEFAULT, WEBHOOK_ENDPOINTS_MAX } from './webhook-rules.pure.js';
import { toEndpointView, type WebhookEndpointView } from './webhook-views.js';

/** What the webhook routes need (runtime/app-deps.ts assembles it). */
export interface WebhookSettings {
  sql: Sql;
  dns: DnsResolver;
  /** WEBHOOK_ALLOW_PRIVATE: endpoints may be on private and loopback addresses. */
  allowPrivate: boolean;
  encryptionKey: string;
  /** Test events and retries asked for through this API are sent by this queue's workers. */
  queue: string;
  /** Wakes the webhook lanes of a queue. */
  webhookNotifier: QueueNotifier;
}

export interface EndpointRef {
  projectId: string;
  endpointId: string;
}

/** An endpoint with its signing secret: the one answer that shows it. */
export type EndpointWithSecret = WebhookEndpointView & { secret: string };

/** Our names for the event types asked for, each once, in the order given. */
const eventTypesOf = (types: string[]): string[] => [
  ...new Set(types.map((type) => canonicalEventName(type.trim()))),
];

export async function requireEndpoint(sql: Sql, ref: EndpointRef): Promise<WebhookEndpointRow> {
  return requireFound(await findWebhookEndpoint(sql, ref), 'Webhook endpoint');
}

export async function createWebhookEndpoint({
  settings,
  projectId,
  input,
}: {
  settings: WebhookSettings;
  projectId: string;
  input: { url: string; eventTypes: string[]; description?: string | null; enabled?: boolean };
}): Promise<EndpointWithSecret> {
  const url = await checkEndpointUrl({ url: input.url, ...settings });
  const secret = newSigningSecret();
  const row = await insertWebhookEndpoint(settings.sql, {
    id: newId(),
    projectId,
    url,
    description: input.description ?? null,
    eventTypes: eventTypesOf(input.eventTypes),
    enabled: input.enabled ?? true,
    secret: encryptSecret(secret, settings.encryptionKey),
    max: WEBHOOK_ENDPOINTS_MAX,
  });
  if (!row) {
    throw validationError({
      field: 'url',
      message: `A project has at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints`,
      code: 'too_many_endpoints',
    });
  }
  return { ...toEndpointView(row), secret };
}

export async function listWebhookEndpoints({
  sql,
  projectId,
}: {
  sql: Sql;
  projectId: string;
}): Promise<{ data: WebhookEndpointView[] }> {
  return { data: (await listEndpointRows(sql, { projectId })).map(toEndpointView) };
}

export async function getWebhookEndpoint({
  sql,
  ...ref
}: EndpointRef & { sql: Sql }): Promise<WebhookEndpointView> {
  return toEndpointView(await requireEndpoint(sql, ref));
}

/** Changes what the patch names; a new URL is checked as on create. */
export async function updateWebhookEndpoint({
  settings,
  patch,
  ...ref
}: EndpointRef & {
  settings: WebhookSettings;
  patch: { url?: string; eventTypes?: string[]; description?: string | null; enabled?: boolean };
}): Promise<WebhookEndpointView> {
  await requireEndpoint(settings.sql, ref);
  const url =
    patch.url === undefined ? null : await checkEndpointUrl({ url: patch.url, ...settings });
  const row = await updateEndpointRow(settings.sql, {
    ...ref,
    url,
    eventTypes: patch.eventTypes ? eventTypesOf(patch.eventTypes) : null,
    enabled: patch.enabled ?? null,
    setDescription: patch.description !== undefined,
    description: patch.description ?? null,
  });
  return toEndpointView(requireFound(row, 'Webhook endpoint'));
}

/** Removes the endpoint and its delivery log; what it had pending is never sent. */
export async function deleteWebhookEndpoint({
  sql,
  ...ref
}: EndpointRef & { sql: Sql }): Promise<{ deleted: true }> {
  requireFound((await deleteEndpointRow(sql, ref)) || null, 'Webhook endpoint');
  return { deleted: true };
}

/**
 * A new signing secret, shown in this answer only. The previous one keeps signing (both
 * signatures are sent) for `overlapSeconds`, so receivers can switch without losing a delivery.
 */
export async function rotateWebhookSecret({
  settings,
  overlapSeconds = SECRET_OVERLAP_SECONDS_DEFAULT,
  ...ref
}: EndpointRef & {
  settings: WebhookSettings;
  overlapSeconds?: number;
}): Promise<EndpointWithSecret> {
  const secret = newSigningSecret();
  const row = await rotateSecretRow(settings.sql, {
    ...ref,
    secret: encryptSecret(secret, settings.encryptionKey),
    overlapSeconds,
  });
  return { ...toEndpointView(requireFound(row, 'Webhook endpoint')), secret };
}
