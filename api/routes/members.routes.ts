import { z } from 'zod';
import {
  addMember,
  changeMemberRole,
  listMembers,
  removeMember,
  type Actor,
} from '../../domain/projects/members.service.js';
import type { AuthInfo } from '../http/route.js';
import { defineRoute } from '../http/route.js';
import {
  addMemberBody,
  changeRoleBody,
  memberParams,
  memberView,
  projectIdParams,
} from './projects.schemas.js';

const actorOf = (auth: AuthInfo): Actor => ({
  userId: auth.principal?.type === 'session' ? auth.principal.userId : undefined,
  role: auth.role ?? 'MEMBER',
});

export const memberRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/projects/:id/members',
    summary: 'Members of the project and their roles',
    tag: 'Members',
    auth: 'projectPath',
    params: projectIdParams,
    response: z.array(memberView),
    handler: async ({ em, params }) => listMembers({ em, projectId: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/projects/:id/members',
    summary: 'Add an existing account to the project (OWNER or ADMIN); they are told by email',
    tag: 'Members',
    auth: 'projectPath',
    role: 'ADMIN',
    params: projectIdParams,
    body: addMemberBody,
    status: 201,
    response: memberView,
    handler: async ({ em, deps, auth, params, body }) =>
      addMember({
        em,
        engine: deps.engine,
        projectId: params.id,
        actor: actorOf(auth),
        email: body.email,
        role: body.role,
      }),
  }),
  defineRoute({
    method: 'patch',
    path: '/projects/:id/members/:userId',
    summary: "Change a member's role (OWNER or ADMIN; only an OWNER touches OWNER roles)",
    tag: 'Members',
    auth: 'projectPath',
    role: 'ADMIN',
    params: memberParams,
    body: changeRoleBody,
    response: memberView,
    handler: async ({ em, auth, params, body }) =>
      changeMemberRole({
        em,
        projectId: params.id,
        actor: actorOf(auth),
        userId: params.userId,
        role: body.role,
      }),
  }),
  defineRoute({
    method: 'delete',
    path: '/projects/:id/members/:userId',
    summary: 'Remove a member (OWNER or ADMIN), or leave the project yourself',
    tag: 'Members',
    auth: 'projectPath',
    authMatrix: {
      expect: { memberSession: 'denied-403', disabledProjectSession: 'denied-403' },
      why: 'A MEMBER may remove only themselves (leave); removing another member takes an ADMIN.',
    },
    params: memberParams,
    status: 204,
    handler: async ({ em, auth, params }) => {
      await removeMember({ em, projectId: params.id, actor: actorOf(auth), userId: params.userId });
    },
  }),
];
