import { z } from 'zod';
import {
  deleteContactField,
  fieldUsage,
  listContactFields,
  listFieldValues,
} from '../../domain/contacts/contact-fields.service.js';
import {
  deleteContact,
  getContact,
  listContacts,
  lookupContacts,
  updateContact,
  upsertContact,
} from '../../domain/contacts/contacts.service.js';
import {
  IMPORT_MAX_BYTES,
  createBulkJob,
  createImportJob,
  getJob,
} from '../../domain/jobs/jobs.service.js';
import {
  BULK_JOB_TYPES,
  IMPORT_JOB_TYPES,
  type BulkJobType,
} from '../../domain/jobs/job-type.pure.js';
import { readUploadedFile } from '../http/multipart.js';
import { KEYED_BY_NAME } from '../http/auth-expectation.pure.js';
import { defineRoute } from '../http/route.js';
import {
  bulkBody,
  contactIdParams,
  contactView,
  cursorList,
  fieldList,
  fieldParams,
  fieldUsageView,
  fieldValues,
  jobAccepted,
  jobIdParams,
  jobView,
  listContactsQuery,
  lookupBody,
  updateContactBody,
  upsertContactBody,
} from './contacts.schemas.js';
import { projectIdOf } from './session-user.js';

const bulkRoute = (path: string, type: BulkJobType, summary: string) =>
  defineRoute({
    method: 'post',
    path,
    summary,
    tag: 'Contacts',
    auth: 'project',
    body: bulkBody,
    status: 202,
    response: jobAccepted,
    handler: async ({ em, deps, auth, body }) => {
      const job = await createBulkJob({
        em,
        engine: deps.engine,
        projectId: projectIdOf(auth),
        type,
        contactIds: body.contactIds,
      });
      return { jobId: job.id, status: job.status };
    },
  });

// Fixed paths come before /contacts/:id, which would otherwise take them.
export const contactRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/contacts',
    summary:
      'Contacts, newest first; `search` matches part of the email, any case; `subscribed` and `subscriptionState` filter',
    tag: 'Contacts',
    auth: 'project',
    query: listContactsQuery,
    response: cursorList(contactView),
    handler: async ({ sql, auth, query }) =>
      listContacts({
        sql,
        projectId: projectIdOf(auth),
        limit: query.limit,
        cursor: query.cursor,
        search: query.search,
        subscribed: query.subscribed,
        state: query.subscriptionState,
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/contacts',
    summary: 'Create or update a contact by email (data rules apply); answers with _meta',
    tag: 'Contacts',
    auth: 'project',
    body: upsertContactBody,
    response: contactView.extend({
      _meta: z.object({ isNew: z.boolean(), isUpdate: z.boolean() }),
    }),
    handler: async ({ sql, auth, body, ctx }) => {
      const contact = await upsertContact({ sql, projectId: projectIdOf(auth), ...body });
      ctx.status = contact._meta.isNew ? 201 : 200;
      ctx.body = contact;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/contacts/lookup',
    summary: 'Which of up to 500 emails are contacts',
    tag: 'Contacts',
    auth: 'project',
    body: lookupBody,
    response: z.object({
      found: z.array(z.object({ id: z.uuid(), email: z.string() })),
      notFound: z.array(z.string()),
    }),
    handler: async ({ sql, auth, body }) =>
      lookupContacts({ sql, projectId: projectIdOf(auth), emails: body.emails }),
  }),
  defineRoute({
    method: 'get',
    path: '/contacts/fields',
    summary: 'Standard and custom fields with inferred types and coverage (percent of contacts)',
    tag: 'Contacts',
    auth: 'project',
    response: fieldList,
    handler: async ({ sql, auth }) => listContactFields({ sql, projectId: projectIdOf(auth) }),
  }),
  defineRoute({
    method: 'get',
    path: '/contacts/fields/:field/values',
    summary: 'Distinct values of a custom field with their counts (top 100)',
    tag: 'Contacts',
    auth: 'project',
    authMatrix: KEYED_BY_NAME,
    params: fieldParams,
    response: fieldValues,
    handler: async ({ sql, auth, params }) =>
      listFieldValues({ sql, projectId: projectIdOf(auth), field: params.field }),
  }),
  defineRoute({
    method: 'get',
    path: '/contacts/fields/:field/usage',
    summary: 'Segments, campaigns and workflows that reference a field',
    tag: 'Contacts',
    auth: 'project',
    authMatrix: KEYED_BY_NAME,
    params: fieldParams,
    response: fieldUsageView,
    handler: async ({ sql, auth, params }) =>
      fieldUsage({ sql, projectId: projectIdOf(auth), field: params.field }),
  }),
  defineRoute({
    method: 'delete',
    path: '/contacts/fields/:field',
    summary: 'Remove a custom field from every contact of the project',
    tag: 'Contacts',
    auth: 'project',
    authMatrix: KEYED_BY_NAME,
    params: fieldParams,
    response: z.object({ field: z.string(), affected: z.number().int() }),
    handler: async ({ sql, auth, params }) =>
      deleteContactField({ sql, projectId: projectIdOf(auth), field: params.field }),
  }),
  defineRoute({
    method: 'post',
    path: '/contacts/import',
    summary:
      'Import contacts from a CSV file (multipart field `file`, 5 MB at most); answers a job id',
    tag: 'Contacts',
    auth: 'project',
    upload: { field: 'file', maxBytes: IMPORT_MAX_BYTES },
    status: 202,
    response: jobAccepted,
    handler: async ({ sql, deps, auth, ctx }) => {
      const file = await readUploadedFile(ctx, { field: 'file', maxBytes: IMPORT_MAX_BYTES });
      const job = await createImportJob({
        sql,
        engine: deps.engine,
        projectId: projectIdOf(auth),
        filename: file.filename,
        content: file.content,
      });
      return { jobId: job.id, status: job.status };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/contacts/import/:jobId',
    summary: 'Status, progress and counts of an import job',
    tag: 'Contacts',
    auth: 'project',
    params: jobIdParams,
    response: jobView,
    handler: async ({ em, auth, params }) =>
      getJob({ em, projectId: projectIdOf(auth), jobId: params.jobId, types: IMPORT_JOB_TYPES }),
  }),
  bulkRoute(
    '/contacts/bulk-subscribe',
    'BULK_SUBSCRIBE',
    'Subscribe up to 1,000 contacts (queued)',
  ),
  bulkRoute(
    '/contacts/bulk-unsubscribe',
    'BULK_UNSUBSCRIBE',
    'Unsubscribe up to 1,000 contacts (queued)',
  ),
  bulkRoute('/contacts/bulk-delete', 'BULK_DELETE', 'Delete up to 1,000 contacts (queued)'),
  defineRoute({
    method: 'get',
    path: '/contacts/bulk/:jobId',
    summary: 'Status and counts of a bulk job',
    tag: 'Contacts',
    auth: 'project',
    params: jobIdParams,
    response: jobView,
    handler: async ({ em, auth, params }) =>
      getJob({ em, projectId: projectIdOf(auth), jobId: params.jobId, types: BULK_JOB_TYPES }),
  }),
  defineRoute({
    method: 'get',
    path: '/contacts/:id',
    summary: 'One contact',
    tag: 'Contacts',
    auth: 'project',
    params: contactIdParams,
    response: contactView,
    handler: async ({ sql, auth, params }) =>
      getContact({ sql, projectId: projectIdOf(auth), contactId: params.id }),
  }),
  defineRoute({
    method: 'patch',
    path: '/contacts/:id',
    summary: 'Update email (409 if taken), subscription (emits its event) and data (data rules)',
    tag: 'Contacts',
    auth: 'project',
    params: contactIdParams,
    body: updateContactBody,
    response: contactView,
    handler: async ({ sql, auth, params, body }) =>
      updateContact({ sql, projectId: projectIdOf(auth), contactId: params.id, ...body }),
  }),
  defineRoute({
    method: 'delete',
    path: '/contacts/:id',
    summary: 'Delete a contact and its events',
    tag: 'Contacts',
    auth: 'project',
    params: contactIdParams,
    status: 204,
    handler: async ({ sql, auth, params }) => {
      await deleteContact({ sql, projectId: projectIdOf(auth), contactId: params.id });
    },
  }),
];
