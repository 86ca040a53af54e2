import {
  listSessions,
  revokeOtherSessions,
  revokeSession,
} from '../../domain/accounts/sessions.service.js';
import { defineRoute } from '../http/route.js';
import { setSessionCookie } from './auth-http.js';
import { revokedResponse, sessionIdParams, sessionList } from './sessions.schemas.js';
import { sessionOf } from './session-user.js';

/** The signed-in user's sessions: listed, ended one by one, or all but this one. */
export const sessionRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/users/@me/sessions',
    summary: "The user's live sessions, the most recently used first",
    tag: 'Accounts',
    auth: 'session',
    response: sessionList,
    handler: async ({ sql, auth }) => listSessions({ sql, session: sessionOf(auth) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/users/@me/sessions/:id',
    summary: "End one of the user's sessions (its token stops working at once)",
    tag: 'Accounts',
    auth: 'session',
    params: sessionIdParams,
    status: 204,
    handler: async ({ sql, auth, params, ctx, deps }) => {
      const session = sessionOf(auth);
      await revokeSession({ sql, userId: session.userId, sessionId: params.id });
      if (params.id === session.sessionId) setSessionCookie(ctx, deps.http, null);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/users/@me/sessions/revoke-others',
    summary: 'Log out everywhere else: end every session of the user but this one',
    tag: 'Accounts',
    auth: 'session',
    response: revokedResponse,
    handler: async ({ sql, auth }) => revokeOtherSessions({ sql, session: sessionOf(auth) }),
  }),
];
