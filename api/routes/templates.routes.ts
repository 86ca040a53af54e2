import { z } from 'zod';
import {
  createTemplate,
  deleteTemplate,
  duplicateTemplate,
  getTemplate,
  listTemplates,
  templateUsage,
  toTemplateView,
  updateTemplate,
} from '../../domain/templates/templates.service.js';
import { previewTemplate } from '../../domain/templates/template-preview.js';
import { defineRoute } from '../http/route.js';
import { projectIdOf } from './session-user.js';
import {
  createTemplateBody,
  listTemplatesQuery,
  previewTemplateBody,
  templateIdParams,
  templatePreviewView,
  templateView,
  updateTemplateBody,
} from './templates.schemas.js';

export const templateRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/templates',
    summary:
      'Templates, newest first: `limit`+`cursor` or `page`+`pageSize`; filter by `type`, `search` on the name',
    tag: 'Templates',
    auth: 'project',
    query: listTemplatesQuery,
    response: z.object({
      templates: z.array(templateView),
      total: z.number().int(),
      page: z.number().int(),
      pageSize: z.number().int(),
      totalPages: z.number().int(),
      cursor: z.string().nullable(),
      hasMore: z.boolean(),
    }),
    handler: async ({ em, auth, query }) =>
      listTemplates({
        em,
        projectId: projectIdOf(auth),
        limit: query.limit ?? query.pageSize ?? 20,
        page: query.page,
        cursor: query.cursor,
        type: query.type,
        search: query.search,
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/templates',
    summary: 'Create a template; `from` must be on a verified domain, the template must compile',
    tag: 'Templates',
    auth: 'project',
    body: createTemplateBody,
    status: 201,
    response: templateView,
    handler: async ({ em, auth, body }) =>
      toTemplateView(await createTemplate({ em, projectId: projectIdOf(auth), input: body })),
  }),
  defineRoute({
    method: 'post',
    path: '/templates/preview',
    summary:
      'Render a subject and body as a send would (same checks and engine) with sample contact data, overridden by `data`; stores and sends nothing',
    tag: 'Templates',
    auth: 'project',
    body: previewTemplateBody,
    response: templatePreviewView,
    handler: async ({ body }) => previewTemplate(body),
  }),
  defineRoute({
    method: 'get',
    path: '/templates/:id',
    summary: 'One template',
    tag: 'Templates',
    auth: 'project',
    params: templateIdParams,
    response: templateView,
    handler: async ({ em, auth, params }) =>
      toTemplateView(
        await getTemplate({ em, projectId: projectIdOf(auth), templateId: params.id }),
      ),
  }),
  defineRoute({
    method: 'patch',
    path: '/templates/:id',
    summary: 'Update a template (same checks as create)',
    tag: 'Templates',
    auth: 'project',
    params: templateIdParams,
    body: updateTemplateBody,
    response: templateView,
    handler: async ({ em, auth, params, body }) =>
      toTemplateView(
        await updateTemplate({
          em,
          projectId: projectIdOf(auth),
          templateId: params.id,
          patch: body,
        }),
      ),
  }),
  defineRoute({
    method: 'delete',
    path: '/templates/:id',
    summary: 'Delete a template',
    tag: 'Templates',
    auth: 'project',
    params: templateIdParams,
    status: 204,
    handler: async ({ em, sql, auth, params }) => {
      await deleteTemplate({ em, sql, projectId: projectIdOf(auth), templateId: params.id });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/templates/:id/duplicate',
    summary: 'Copy a template; answers the new template (its id included)',
    tag: 'Templates',
    auth: 'project',
    params: templateIdParams,
    status: 201,
    response: templateView,
    handler: async ({ em, auth, params }) =>
      toTemplateView(
        await duplicateTemplate({ em, projectId: projectIdOf(auth), templateId: params.id }),
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/templates/:id/usage',
    summary: 'Campaigns and workflow steps that use the template',
    tag: 'Templates',
    auth: 'project',
    params: templateIdParams,
    handler: async ({ em, sql, auth, params }) =>
      templateUsage({ em, sql, projectId: projectIdOf(auth), templateId: params.id }),
  }),
];
