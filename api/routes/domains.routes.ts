import { z } from 'zod';
import {
  addDomain,
  deleteDomain,
  listDomains,
  verifyDomainNow,
} from '../../domain/domains/domains.service.js';
import { forbidden, notFound } from '../../domain/shared/errors.js';
import { defineRoute } from '../http/route.js';
import {
  addDomainBody,
  domainIdParams,
  domainView,
  projectDomainsParams,
} from './domains.schemas.js';
import { projectIdOf } from './session-user.js';

export const domainRoutes = () => [
  defineRoute({
    method: 'post',
    path: '/domains',
    summary: 'Add a sending domain: makes its DKIM key pair and answers the DNS records to publish',
    tag: 'Domains',
    auth: 'project',
    role: 'ADMIN',
    body: addDomainBody,
    status: 201,
    response: domainView,
    handler: async ({ em, deps, auth, body }) => {
      const projectId = projectIdOf(auth);
      if (body.projectId && body.projectId !== projectId)
        throw forbidden('The domain can only be added to your own project');
      return addDomain({ em, ...deps.domains, projectId, domain: body.domain });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/domains/project/:projectId',
    summary: "The project's domains, verified and pending",
    tag: 'Domains',
    auth: 'project',
    params: projectDomainsParams,
    response: z.array(domainView),
    handler: async ({ em, deps, auth, params }) => {
      if (params.projectId !== projectIdOf(auth)) throw notFound('Project');
      return listDomains({ em, ...deps.domains, projectId: params.projectId });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/domains/:id/verify',
    summary: 'Check the DNS records now and answer the domain',
    tag: 'Domains',
    auth: 'project',
    params: domainIdParams,
    response: domainView,
    handler: async ({ em, deps, auth, params }) =>
      verifyDomainNow({ em, ...deps.domains, projectId: projectIdOf(auth), domainId: params.id }),
  }),
  defineRoute({
    method: 'delete',
    path: '/domains/:id',
    summary: 'Remove a sending domain',
    tag: 'Domains',
    auth: 'project',
    role: 'ADMIN',
    params: domainIdParams,
    status: 204,
    handler: async ({ em, auth, params }) => {
      await deleteDomain({ em, projectId: projectIdOf(auth), domainId: params.id });
    },
  }),
];
