import { z } from 'zod';
import {
  getWebhookDelivery,
  listWebhookDeliveries,
  retryFailedWebhookDeliveries,
  retryWebhookDelivery,
  sendWebhookTestEvent,
} from '../../domain/webhooks/webhook-deliveries.service.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from '../../domain/webhooks/webhook-endpoints.service.js';
import { defineRoute } from '../http/route.js';
import { projectIdOf } from './session-user.js';
import {
  createEndpointBody,
  deliveryPage,
  deliveryParams,
  deliveryView,
  endpointList,
  endpointParams,
  endpointView,
  endpointWithSecret,
  listDeliveriesQuery,
  retryFailedBody,
  rotateSecretBody,
  updateEndpointBody,
} from './webhook-endpoints.schemas.js';

// Endpoints carry the project's events to its own servers: every route is for ADMINs and up.
const common = { tag: 'Webhook endpoints', auth: 'project', role: 'ADMIN' } as const;

export const webhookEndpointRoutes = () => [
  defineRoute({
    ...common,
    method: 'post',
    path: '/webhook-endpoints',
    summary:
      'Register an endpoint for some event types (20 per project); the answer shows its signing secret, once',
    body: createEndpointBody,
    status: 201,
    response: endpointWithSecret,
    handler: async ({ deps, auth, body }) =>
      createWebhookEndpoint({ settings: deps.webhooks, projectId: projectIdOf(auth), input: body }),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/webhook-endpoints',
    summary: "The project's webhook endpoints (secrets never shown)",
    response: endpointList,
    handler: async ({ sql, auth }) => listWebhookEndpoints({ sql, projectId: projectIdOf(auth) }),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/webhook-endpoints/:id',
    summary: 'One webhook endpoint',
    params: endpointParams,
    response: endpointView,
    handler: async ({ sql, auth, params }) =>
      getWebhookEndpoint({ sql, projectId: projectIdOf(auth), endpointId: params.id }),
  }),
  defineRoute({
    ...common,
    method: 'patch',
    path: '/webhook-endpoints/:id',
    summary:
      'Change the URL, event types, description or enabled flag (enabling starts its failure count afresh)',
    params: endpointParams,
    body: updateEndpointBody,
    response: endpointView,
    handler: async ({ deps, auth, params, body }) =>
      updateWebhookEndpoint({
        settings: deps.webhooks,
        projectId: projectIdOf(auth),
        endpointId: params.id,
        patch: body,
      }),
  }),
  defineRoute({
    ...common,
    method: 'delete',
    path: '/webhook-endpoints/:id',
    summary: 'Remove the endpoint and its delivery log',
    params: endpointParams,
    response: z.object({ deleted: z.literal(true) }),
    handler: async ({ sql, auth, params }) =>
      deleteWebhookEndpoint({ sql, projectId: projectIdOf(auth), endpointId: params.id }),
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: '/webhook-endpoints/:id/rotate-secret',
    summary:
      'A new signing secret (shown once); the previous one keeps signing for overlapSeconds (default 1 day)',
    params: endpointParams,
    body: rotateSecretBody,
    response: endpointWithSecret,
    handler: async ({ deps, auth, params, body }) =>
      rotateWebhookSecret({
        settings: deps.webhooks,
        projectId: projectIdOf(auth),
        endpointId: params.id,
        overlapSeconds: body.overlapSeconds,
      }),
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: '/webhook-endpoints/:id/test',
    summary: 'Queue a webhook.test event for this endpoint; it shows in the delivery log',
    params: endpointParams,
    status: 202,
    response: deliveryView,
    handler: async ({ deps, auth, params }) =>
      sendWebhookTestEvent({
        settings: deps.webhooks,
        projectId: projectIdOf(auth),
        endpointId: params.id,
      }),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/webhook-endpoints/:id/deliveries',
    summary:
      'The delivery log, newest first: status, attempts, last answer (code, first 1 KB), latency',
    params: endpointParams,
    query: listDeliveriesQuery,
    response: deliveryPage,
    handler: async ({ sql, auth, params, query }) =>
      listWebhookDeliveries({
        sql,
        projectId: projectIdOf(auth),
        endpointId: params.id,
        statuses: query.status,
        limit: query.limit,
        cursor: query.cursor,
      }),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/webhook-endpoints/:id/deliveries/:deliveryId',
    summary: 'One delivery, with the body it sends',
    params: deliveryParams,
    response: deliveryView,
    handler: async ({ sql, auth, params }) =>
      getWebhookDelivery({
        sql,
        projectId: projectIdOf(auth),
        endpointId: params.id,
        deliveryId: params.deliveryId,
      }),
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: '/webhook-endpoints/:id/deliveries/:deliveryId/retry',
    summary: 'Send one delivery again now, once, with the same webhook-id (409 while PENDING)',
    params: deliveryParams,
    status: 202,
    response: deliveryView,
    handler: async ({ deps, auth, params }) =>
      retryWebhookDelivery({
        settings: deps.webhooks,
        projectId: projectIdOf(auth),
        endpointId: params.id,
        deliveryId: params.deliveryId,
      }),
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: '/webhook-endpoints/:id/deliveries/retry',
    summary: 'Send every FAILED delivery queued since a time again, once each',
    params: endpointParams,
    body: retryFailedBody,
    status: 202,
    response: z.object({ retried: z.number().int() }),
    handler: async ({ deps, auth, params, body }) =>
      retryFailedWebhookDeliveries({
        settings: deps.webhooks,
        projectId: projectIdOf(auth),
        endpointId: params.id,
        since: new Date(body.since),
      }),
  }),
];
