import { z } from 'zod';
import {
  deleteEventsByName,
  eventStats,
  eventUsage,
  listContactEvents,
  listEventNames,
  listEvents,
} from '../../domain/events/events.service.js';
import { trackEvent } from '../../domain/events/track.service.js';
import { KEYED_BY_NAME } from '../http/auth-expectation.pure.js';
import { idempotencyKeyOf } from '../http/idempotency-key.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import { publicKeyConfirmation } from './double-opt-in.routes.js';
import { cursorList } from './contacts.schemas.js';
import {
  contactIdParams,
  eventNameParams,
  eventNamesResult,
  eventView,
  listEventsQuery,
  trackBody,
  trackResult,
} from './events.schemas.js';
import { projectIdOf } from './session-user.js';

const trackRoute = (path: string, summary: string): AnyRoute =>
  defineRoute({
    method: 'post',
    path,
    summary,
    tag: path.startsWith('/v1') ? 'Public API' : 'Events',
    // The public key is for POST /v1/track alone; the dashboard alias takes a secret key or session.
    auth: path.startsWith('/v1') ? 'track' : 'project',
    body: trackBody,
    response: trackResult,
    handler: async ({ sql, deps, auth, body, ctx }) => ({
      success: true,
      data: await trackEvent({
        sql,
        dispatch: deps.automation,
        writes: deps.trackWrites,
        projectId: projectIdOf(auth),
        input: body,
        idempotencyKey: idempotencyKeyOf(ctx),
        // The public key's subscriptions wait for a confirmation when the project asks for one.
        confirmation: publicKeyConfirmation(auth, deps),
      }),
    }),
  });

export const trackRoutes = () => [
  trackRoute(
    '/v1/track',
    'Track an event for a contact (created if missing); public (pk_) or secret key. Idempotency-Key supported',
  ),
];

export const eventRoutes = () => [
  trackRoute('/events/track', 'Dashboard alias of POST /v1/track'),
  defineRoute({
    method: 'get',
    path: '/events',
    summary: 'Recent events, newest first; `event` filters by name',
    tag: 'Events',
    auth: 'project',
    query: listEventsQuery,
    response: cursorList(eventView),
    handler: async ({ sql, auth, query }) =>
      listEvents({
        sql,
        projectId: projectIdOf(auth),
        limit: query.limit,
        cursor: query.cursor,
        name: query.event,
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/events/stats',
    summary: 'Event counts over time, distinct names and the most frequent events',
    tag: 'Events',
    auth: 'project',
    handler: async ({ sql, auth }) => eventStats({ sql, projectId: projectIdOf(auth) }),
  }),
  defineRoute({
    method: 'get',
    path: '/events/names',
    summary: 'Distinct event names with counts and when each was last seen',
    tag: 'Events',
    auth: 'project',
    response: eventNamesResult,
    handler: async ({ sql, auth }) => listEventNames({ sql, projectId: projectIdOf(auth) }),
  }),
  defineRoute({
    method: 'get',
    path: '/events/contact/:contactId',
    summary: 'Events of one contact, newest first',
    tag: 'Events',
    auth: 'project',
    params: contactIdParams,
    query: listEventsQuery.omit({ event: true }),
    response: cursorList(eventView),
    handler: async ({ sql, auth, params, query }) =>
      listContactEvents({
        sql,
        projectId: projectIdOf(auth),
        contactId: params.contactId,
        limit: query.limit,
        cursor: query.cursor,
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/events/:eventName/usage',
    summary: 'Segment filters, workflow triggers and conditions that reference an event name',
    tag: 'Events',
    auth: 'project',
    authMatrix: KEYED_BY_NAME,
    params: eventNameParams,
    handler: async ({ sql, auth, params }) =>
      eventUsage({ sql, projectId: projectIdOf(auth), name: params.eventName }),
  }),
  defineRoute({
    method: 'delete',
    path: '/events/:eventName',
    summary: 'Delete every event with this name in the project',
    tag: 'Events',
    auth: 'project',
    authMatrix: KEYED_BY_NAME,
    params: eventNameParams,
    response: z.object({ event: z.string(), deleted: z.number().int() }),
    handler: async ({ sql, auth, params }) =>
      deleteEventsByName({ sql, projectId: projectIdOf(auth), name: params.eventName }),
  }),
];
