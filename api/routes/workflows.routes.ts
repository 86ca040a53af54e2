import { duplicateWorkflow } from '../../domain/automation/duplicate-workflow.js';
import {
  addStep,
  addTransition,
  deleteStep,
  deleteTransition,
  updateStep,
} from '../../domain/automation/edit-workflow-graph.js';
import {
  createWorkflow,
  deleteWorkflow,
  updateWorkflow,
} from '../../domain/automation/edit-workflow.js';
import {
  getWorkflow,
  listWorkflows,
  workflowFields,
  workflowStepCounts,
} from '../../domain/automation/read-workflows.js';
import { defineRoute } from '../http/route.js';
import {
  addStepBody,
  addTransitionBody,
  createWorkflowBody,
  deleteStepQuery,
  listWorkflowsQuery,
  stepParams,
  stepView,
  transitionParams,
  transitionView,
  updateStepBody,
  updateStepQuery,
  updateWorkflowBody,
  workflowDetailView,
  workflowFieldsView,
  workflowIdParams,
  workflowPage,
  workflowStepCountsView,
} from './workflows.schemas.js';
import { projectIdOf } from './session-user.js';

export const workflowRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/workflows',
    summary: 'Workflows of the project, newest first, page by page',
    tag: 'Workflows',
    auth: 'project',
    query: listWorkflowsQuery,
    response: workflowPage,
    handler: async ({ sql, auth, query }) => {
      const page = await listWorkflows({
        sql,
        projectId: projectIdOf(auth),
        page: query.page,
        pageSize: query.pageSize,
        enabled: query.enabled,
        search: query.search,
      });
      const { data, ...rest } = page;
      return { workflows: data, ...rest };
    },
  }),
  // Before /workflows/:id, which would read "fields" as an id.
  defineRoute({
    method: 'get',
    path: '/workflows/fields',
    summary:
      'Fields a CONDITION step can read: contact fields and data keys, and event names with their data keys',
    tag: 'Workflows',
    auth: 'project',
    response: workflowFieldsView,
    handler: async ({ sql, auth }) => workflowFields({ sql, projectId: projectIdOf(auth) }),
  }),
  defineRoute({
    method: 'post',
    path: '/workflows',
    summary: 'Create a workflow: EVENT-triggered (triggerEvent, alias eventName) and disabled',
    tag: 'Workflows',
    auth: 'project',
    body: createWorkflowBody,
    status: 201,
    response: workflowDetailView,
    handler: async ({ sql, auth, body }) =>
      createWorkflow({
        sql,
        projectId: projectIdOf(auth),
        input: {
          name: body.name,
          description: body.description,
          triggerEvent: (body.triggerEvent ?? body.eventName) as string,
          allowReentry: body.allowReentry,
        },
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/workflows/:id',
    summary:
      'One workflow with its steps, transitions, execution counts and what keeps it from running',
    tag: 'Workflows',
    auth: 'project',
    params: workflowIdParams,
    response: workflowDetailView,
    handler: async ({ sql, auth, params }) =>
      getWorkflow({ sql, projectId: projectIdOf(auth), workflowId: params.id }),
  }),
  defineRoute({
    method: 'get',
    path: '/workflows/:id/step-counts',
    summary:
      'Per step: executions that completed it, are at it now, and ended there EXITED or FAILED',
    tag: 'Workflows',
    auth: 'project',
    params: workflowIdParams,
    response: workflowStepCountsView,
    handler: async ({ sql, auth, params }) =>
      workflowStepCounts({ sql, projectId: projectIdOf(auth), workflowId: params.id }),
  }),
  defineRoute({
    method: 'patch',
    path: '/workflows/:id',
    summary:
      'Name, description, trigger (EVENT | MANUAL | SEGMENT_ENTRY with triggerConfig), enabled, allowReentry; enabling a graph that cannot run is a 422 naming the step',
    tag: 'Workflows',
    auth: 'project',
    params: workflowIdParams,
    body: updateWorkflowBody,
    response: workflowDetailView,
    handler: async ({ sql, auth, params, body }) =>
      updateWorkflow({
        sql,
        projectId: projectIdOf(auth),
        workflowId: params.id,
        patch: { ...body, triggerEvent: body.triggerEvent ?? body.eventName },
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/workflows/:id/duplicate',
    summary: 'A disabled copy of the workflow with its trigger, steps and transitions',
    tag: 'Workflows',
    auth: 'project',
    params: workflowIdParams,
    status: 201,
    response: workflowDetailView,
    handler: async ({ sql, auth, params }) =>
      duplicateWorkflow({ sql, projectId: projectIdOf(auth), workflowId: params.id }),
  }),
  defineRoute({
    method: 'delete',
    path: '/workflows/:id',
    summary: 'Delete a workflow (409 while executions are RUNNING or WAITING)',
    tag: 'Workflows',
    auth: 'project',
    params: workflowIdParams,
    status: 204,
    handler: async ({ sql, auth, params }) => {
      await deleteWorkflow({ sql, projectId: projectIdOf(auth), workflowId: params.id });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/workflows/:id/steps',
    summary: 'Add a step (its config checked for its type)',
    tag: 'Workflows',
    auth: 'project',
    params: workflowIdParams,
    body: addStepBody,
    status: 201,
    response: stepView,
    handler: async ({ sql, auth, params, body }) =>
      addStep({ sql, projectId: projectIdOf(auth), workflowId: params.id, input: body }),
  }),
  defineRoute({
    method: 'patch',
    path: '/workflows/:id/steps/:stepId',
    summary:
      'Change a step (name, position, config); a config change while executions are active is a 409 unless ?force=true',
    tag: 'Workflows',
    auth: 'project',
    params: stepParams,
    query: updateStepQuery,
    body: updateStepBody,
    response: stepView,
    handler: async ({ sql, auth, params, query, body }) =>
      updateStep({
        sql,
        projectId: projectIdOf(auth),
        workflowId: params.id,
        stepId: params.stepId,
        patch: body,
        force: query.force,
      }),
  }),
  defineRoute({
    method: 'delete',
    path: '/workflows/:id/steps/:stepId',
    summary: 'Delete a step; ?splice=true links the steps before it to the one after it',
    tag: 'Workflows',
    auth: 'project',
    params: stepParams,
    query: deleteStepQuery,
    status: 204,
    handler: async ({ sql, auth, params, query }) => {
      await deleteStep({
        sql,
        projectId: projectIdOf(auth),
        workflowId: params.id,
        stepId: params.stepId,
        splice: query.splice,
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/workflows/:id/transitions',
    summary:
      'Link two steps: CONDITION transitions carry branch yes|no, WAIT_FOR_EVENT event|timeout; no self links, no cycles, one per branch',
    tag: 'Workflows',
    auth: 'project',
    params: workflowIdParams,
    body: addTransitionBody,
    status: 201,
    response: transitionView,
    handler: async ({ sql, auth, params, body }) =>
      addTransition({ sql, projectId: projectIdOf(auth), workflowId: params.id, input: body }),
  }),
  defineRoute({
    method: 'delete',
    path: '/workflows/:id/transitions/:transitionId',
    summary: 'Delete a transition',
    tag: 'Workflows',
    auth: 'project',
    params: transitionParams,
    status: 204,
    handler: async ({ sql, auth, params }) => {
      await deleteTransition({
        sql,
        projectId: projectIdOf(auth),
        workflowId: params.id,
        transitionId: params.transitionId,
      });
    },
  }),
];
