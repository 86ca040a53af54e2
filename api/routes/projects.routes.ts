import { z } from 'zod';
import {
  createProject,
  deleteProject,
  listProjectsOfUser,
  regenerateKeys,
  resetProject,
  toProjectView,
  updateProject,
} from '../../domain/projects/projects.service.js';
import { projectSecurity } from '../../domain/projects/security.service.js';
import { projectSetupState } from '../../domain/projects/setup-state.service.js';
import { defineRoute } from '../http/route.js';
import {
  createProjectBody,
  projectIdParams,
  projectView,
  securityView,
  setupStateView,
  updateProjectBody,
} from './projects.schemas.js';
import { sessionUserId } from './session-user.js';

const withKeys = projectView.extend({ secretKey: z.string().describe('Shown once, in full') });

export const projectRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/users/@me/projects',
    summary: "The logged-in user's projects",
    tag: 'Projects',
    auth: 'session',
    response: z.array(projectView),
    handler: async ({ em, auth }) => listProjectsOfUser({ em, userId: sessionUserId(auth) }),
  }),
  defineRoute({
    method: 'post',
    path: '/users/@me/projects',
    summary: 'Create a project; the answer holds both keys, the secret one for the only time',
    tag: 'Projects',
    auth: 'session',
    body: createProjectBody,
    status: 201,
    response: withKeys,
    handler: async ({ em, auth, body }) => {
      const { project, keys } = await createProject({
        em,
        owner: sessionUserId(auth),
        name: body.name,
      });
      return { ...toProjectView(project, 'OWNER'), ...keys };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/users/@me/projects/:id',
    summary: 'Update the name or settings (OWNER or ADMIN)',
    tag: 'Projects',
    auth: 'projectPath',
    role: 'ADMIN',
    params: projectIdParams,
    body: updateProjectBody,
    response: projectView,
    handler: async ({ em, auth, params, body }) => {
      const project = await updateProject({
        em,
        projectId: params.id,
        name: body.name,
        settings: body.settings,
      });
      return toProjectView(project, auth.role);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/users/@me/projects/:id/regenerate-keys',
    summary: 'Rotate both keys at once; the old ones stop working immediately (OWNER or ADMIN)',
    tag: 'Projects',
    auth: 'projectPath',
    role: 'ADMIN',
    params: projectIdParams,
    response: withKeys,
    handler: async ({ em, auth, params }) => {
      const { project, keys } = await regenerateKeys({ em, projectId: params.id });
      return { ...toProjectView(project, auth.role), ...keys };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/users/@me/projects/:id/security',
    summary: 'Bounce and complaint rates over the last 30 days, and suspensions',
    tag: 'Projects',
    auth: 'projectPath',
    params: projectIdParams,
    response: securityView,
    handler: async ({ sql, params }) => projectSecurity({ sql, projectId: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/users/@me/projects/:id/reset',
    summary:
      "Wipe the project's data (contacts, events, emails...), keeping keys and members (OWNER)",
    tag: 'Projects',
    auth: 'projectPath',
    role: 'OWNER',
    params: projectIdParams,
    response: z.object({ success: z.literal(true) }),
    handler: async ({ sql, deps, params }) => {
      await resetProject({ sql, projectId: params.id, dataDir: deps.reports.dataDir });
      return { success: true };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/users/@me/projects/:id',
    summary: 'Delete the project and everything in it (OWNER)',
    tag: 'Projects',
    auth: 'projectPath',
    role: 'OWNER',
    params: projectIdParams,
    status: 204,
    handler: async ({ em, deps, params }) => {
      await deleteProject({ em, projectId: params.id, dataDir: deps.reports.dataDir });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/projects/:id/setup-state',
    summary:
      'Onboarding checklist: owner verified, team, domain, template, contact, first send, workflow, campaign (and subscription with billing on)',
    tag: 'Projects',
    auth: 'projectPath',
    params: projectIdParams,
    response: setupStateView,
    handler: async ({ sql, deps, params }) =>
      projectSetupState({ sql, projectId: params.id, billingOn: Boolean(deps.billing.payments) }),
  }),
  defineRoute({
    method: 'get',
    path: '/projects/:id/security',
    summary: 'Security state: bounce and complaint rates, suspensions',
    tag: 'Projects',
    auth: 'projectPath',
    params: projectIdParams,
    response: securityView,
    handler: async ({ sql, params }) => projectSecurity({ sql, projectId: params.id }),
  }),
];
