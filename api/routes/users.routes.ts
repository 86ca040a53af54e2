import { getUser, toUserView } from '../../domain/accounts/accounts.service.js';
import { defineRoute } from '../http/route.js';
import { userView } from './auth.schemas.js';
import { sessionUserId } from './session-user.js';

export const userRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/users/@me',
    summary: 'The logged-in user',
    tag: 'Accounts',
    auth: 'session',
    response: userView,
    handler: async ({ em, auth }) => toUserView(await getUser({ em, userId: sessionUserId(auth) })),
  }),
];
