import { z } from 'zod';
import {
  addStaticMembers,
  computeSegment,
  createSegment,
  deleteSegment,
  getSegment,
  listSegmentContacts,
  listSegments,
  previewFilter,
  refreshSegment,
  removeStaticMembers,
  segmentUsage,
  updateSegment,
} from '../../domain/segments/segments.service.js';
import { defineRoute } from '../http/route.js';
import {
  addMembersBody,
  computeResult,
  createSegmentBody,
  previewSegmentBody,
  previewResult,
  removeMembersBody,
  segmentContactsPage,
  segmentContactsQuery,
  segmentIdParams,
  segmentView,
  updateSegmentBody,
} from './segments.schemas.js';
import { projectIdOf } from './session-user.js';

/** The filter of a body, under either of its names, and which one it came under. */
const filterOf = (body: { filters?: unknown; condition?: unknown }) =>
  body.filters !== undefined
    ? { filter: body.filters, filterField: 'filters' }
    : { filter: body.condition, filterField: 'condition' };

export const segmentRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/segments',
    summary: 'Every segment of the project, with its cached member count (no pagination)',
    tag: 'Segments',
    auth: 'project',
    response: z.array(segmentView),
    handler: async ({ sql, auth }) => listSegments({ sql, projectId: projectIdOf(auth) }),
  }),
  defineRoute({
    method: 'post',
    path: '/segments',
    summary: 'Create a DYNAMIC segment (a filter) or a STATIC one (a member list)',
    tag: 'Segments',
    auth: 'project',
    body: createSegmentBody,
    status: 201,
    response: segmentView,
    handler: async ({ sql, auth, body }) => {
      const { filter, filterField } = filterOf(body);
      return createSegment({
        sql,
        projectId: projectIdOf(auth),
        input: {
          name: body.name,
          description: body.description,
          type: body.type,
          filter: filter as typeof body.filters,
          filterField,
          trackMembership: body.trackMembership,
        },
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/segments/preview',
    summary: 'Count the contacts an unsaved filter matches, with a sample of them (saves nothing)',
    tag: 'Segments',
    auth: 'project',
    body: previewSegmentBody,
    response: previewResult,
    handler: async ({ sql, auth, body }) => {
      const { filter, filterField } = filterOf(body);
      return previewFilter({
        sql,
        projectId: projectIdOf(auth),
        filter: filter as NonNullable<typeof body.filters>,
        filterField,
        sampleSize: body.sampleSize,
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/segments/:id',
    summary: 'One segment, with its cached member count',
    tag: 'Segments',
    auth: 'project',
    params: segmentIdParams,
    response: segmentView,
    handler: async ({ sql, auth, params }) =>
      getSegment({ sql, projectId: projectIdOf(auth), segmentId: params.id }),
  }),
  defineRoute({
    method: 'patch',
    path: '/segments/:id',
    summary: 'Change the name, description, filter (DYNAMIC only) or membership tracking',
    tag: 'Segments',
    auth: 'project',
    params: segmentIdParams,
    body: updateSegmentBody,
    response: segmentView,
    handler: async ({ sql, auth, params, body }) => {
      const { filter, filterField } = filterOf(body);
      return updateSegment({
        sql,
        projectId: projectIdOf(auth),
        segmentId: params.id,
        patch: {
          name: body.name,
          description: body.description,
          filter: filter as typeof body.filters,
          filterField,
          trackMembership: body.trackMembership,
        },
      });
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/segments/:id',
    summary: 'Delete a segment (409 while another segment or an active campaign uses it)',
    tag: 'Segments',
    auth: 'project',
    params: segmentIdParams,
    status: 204,
    handler: async ({ sql, auth, params }) => {
      await deleteSegment({ sql, projectId: projectIdOf(auth), segmentId: params.id });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/segments/:id/usage',
    summary:
      'What uses a segment: segments whose filters name it, campaigns, workflows it triggers',
    tag: 'Segments',
    auth: 'project',
    params: segmentIdParams,
    handler: async ({ sql, auth, params }) =>
      segmentUsage({ sql, projectId: projectIdOf(auth), segmentId: params.id }),
  }),
  defineRoute({
    method: 'get',
    path: '/segments/:id/contacts',
    summary: 'Members, page by page: live for a DYNAMIC segment, the list of a STATIC one',
    tag: 'Segments',
    auth: 'project',
    params: segmentIdParams,
    query: segmentContactsQuery,
    response: segmentContactsPage,
    handler: async ({ sql, auth, params, query }) =>
      listSegmentContacts({
        sql,
        projectId: projectIdOf(auth),
        segmentId: params.id,
        page: query.page,
        pageSize: query.pageSize,
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/segments/:id/members',
    summary: 'Add contacts to a STATIC segment by email (up to 500; createMissing creates them)',
    tag: 'Segments',
    auth: 'project',
    params: segmentIdParams,
    body: addMembersBody,
    response: z.object({
      added: z.number().int(),
      created: z.number().int(),
      notFound: z.array(z.string()),
    }),
    handler: async ({ sql, auth, params, body }) =>
      addStaticMembers({
        sql,
        projectId: projectIdOf(auth),
        segmentId: params.id,
        emails: body.emails,
        createMissing: body.createMissing,
        subscribed: body.subscribed,
      }),
  }),
  defineRoute({
    method: 'delete',
    path: '/segments/:id/members',
    summary: 'Remove contacts from a STATIC segment by email (up to 500)',
    tag: 'Segments',
    auth: 'project',
    params: segmentIdParams,
    body: removeMembersBody,
    response: z.object({ removed: z.number().int() }),
    handler: async ({ sql, auth, params, body }) =>
      removeStaticMembers({
        sql,
        projectId: projectIdOf(auth),
        segmentId: params.id,
        emails: body.emails,
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/segments/:id/compute',
    summary:
      'Recompute a tracked DYNAMIC segment now (a durable workflow); fires one entry or exit event per change',
    tag: 'Segments',
    auth: 'project',
    params: segmentIdParams,
    response: computeResult,
    handler: async ({ sql, deps, auth, params }) =>
      computeSegment({
        sql,
        engine: deps.engine,
        projectId: projectIdOf(auth),
        segmentId: params.id,
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/segments/:id/refresh',
    summary: 'Count the members again (no events, no membership written)',
    tag: 'Segments',
    auth: 'project',
    params: segmentIdParams,
    response: z.object({ memberCount: z.number().int() }),
    handler: async ({ sql, auth, params }) =>
      refreshSegment({ sql, projectId: projectIdOf(auth), segmentId: params.id }),
  }),
];
