import {
  cancelAllExecutions,
  cancelExecution,
  getExecution,
  listExecutions,
  startExecution,
} from '../../domain/automation/executions.service.js';
import { z } from 'zod';
import { defineRoute } from '../http/route.js';
import {
  executionPage,
  executionParams,
  executionView,
  listExecutionsQuery,
  startExecutionBody,
  workflowIdParams,
} from './workflows.schemas.js';
import { projectIdOf } from './session-user.js';

export const workflowExecutionRoutes = () => [
  defineRoute({
    method: 'post',
    path: '/workflows/:id/executions',
    summary:
      'Start an execution for a contact ({contactId | email, context?}); 409 when the workflow is disabled or its reentry rule refuses',
    tag: 'Workflows',
    auth: 'project',
    params: workflowIdParams,
    body: startExecutionBody,
    status: 201,
    response: executionView,
    handler: async ({ deps, auth, params, body }) =>
      startExecution({
        ...deps.automation,
        projectId: projectIdOf(auth),
        workflowId: params.id,
        contact: body.contactId ? { id: body.contactId } : { email: body.email as string },
        context: body.context,
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/workflows/:id/executions',
    summary: 'Executions of the workflow, newest first, filterable by status (cursor pages)',
    tag: 'Workflows',
    auth: 'project',
    params: workflowIdParams,
    query: listExecutionsQuery,
    response: executionPage,
    handler: async ({ sql, auth, params, query }) => {
      const { data, ...page } = await listExecutions({
        sql,
        projectId: projectIdOf(auth),
        workflowId: params.id,
        statuses: query.status,
        limit: query.limit,
        cursor: query.cursor,
      });
      return { executions: data, ...page };
    },
  }),
  // Before /workflows/:id/executions/:executionId, which would read "cancel-all" as an id.
  defineRoute({
    method: 'post',
    path: '/workflows/:id/executions/cancel-all',
    summary: 'Cancel every RUNNING and WAITING execution of the workflow',
    tag: 'Workflows',
    auth: 'project',
    params: workflowIdParams,
    response: z.object({ cancelled: z.number().int() }),
    handler: async ({ deps, auth, params }) =>
      cancelAllExecutions({
        ...deps.automation,
        projectId: projectIdOf(auth),
        workflowId: params.id,
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/workflows/:id/executions/:executionId',
    summary: 'One execution with its step log',
    tag: 'Workflows',
    auth: 'project',
    params: executionParams,
    response: executionView,
    handler: async ({ sql, auth, params }) =>
      getExecution({
        sql,
        projectId: projectIdOf(auth),
        workflowId: params.id,
        executionId: params.executionId,
      }),
  }),
  defineRoute({
    method: 'delete',
    path: '/workflows/:id/executions/:executionId',
    summary: 'Cancel a RUNNING or WAITING execution (409 when it has ended)',
    tag: 'Workflows',
    auth: 'project',
    params: executionParams,
    response: executionView,
    handler: async ({ deps, auth, params }) =>
      cancelExecution({
        ...deps.automation,
        projectId: projectIdOf(auth),
        workflowId: params.id,
        executionId: params.executionId,
      }),
  }),
];
