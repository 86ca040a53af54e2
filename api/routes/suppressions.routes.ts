import {
  getColumnSetting,
  setColumnSetting,
} from '../../domain/projects/column-settings.service.js';
import { liftSuppression, listSuppressions } from '../../domain/sending/suppressions.service.js';
import { defineRoute } from '../http/route.js';
import { projectIdOf } from './session-user.js';
import {
  bouncePolicyBody,
  bouncePolicyView,
  listSuppressionsQuery,
  suppressionPage,
  suppressionParams,
  suppressionView,
} from './suppressions.schemas.js';

export const suppressionRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/suppressions',
    summary: "The project's suppression list, newest first, with each entry's reason and evidence",
    tag: 'Suppressions',
    auth: 'project',
    query: listSuppressionsQuery,
    response: suppressionPage,
    handler: async ({ sql, auth, query }) =>
      listSuppressions({ sql, projectId: projectIdOf(auth), ...query }),
  }),
  defineRoute({
    method: 'delete',
    path: '/suppressions/:email',
    summary: 'Lift a suppression: mail to the address goes out again (ADMIN)',
    tag: 'Suppressions',
    auth: 'project',
    role: 'ADMIN',
    params: suppressionParams,
    response: suppressionView,
    handler: async ({ sql, auth, params }) =>
      liftSuppression({ sql, projectId: projectIdOf(auth), email: params.email }),
  }),
  defineRoute({
    method: 'get',
    path: '/bounce-policy',
    summary: 'What a hard bounce does, and how many soft bounces suppress an address',
    tag: 'Suppressions',
    auth: 'project',
    response: bouncePolicyView,
    handler: async ({ sql, auth }) =>
      getColumnSetting({ sql, projectId: projectIdOf(auth), setting: 'bounce_policy' }),
  }),
  defineRoute({
    method: 'put',
    path: '/bounce-policy',
    summary: 'Replace the bounce policy; a field left out takes its default (ADMIN)',
    tag: 'Suppressions',
    auth: 'project',
    role: 'ADMIN',
    body: bouncePolicyBody,
    response: bouncePolicyView,
    handler: async ({ sql, auth, body }) =>
      setColumnSetting({
        sql,
        projectId: projectIdOf(auth),
        setting: 'bounce_policy',
        value: body,
      }),
  }),
];
