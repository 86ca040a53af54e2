import { changeEmail, changePassword } from '../../domain/accounts/account-changes.service.js';
import { getUser, toUserView } from '../../domain/accounts/accounts.service.js';
import { defineRoute } from '../http/route.js';
import { okResponse, userView } from './auth.schemas.js';
import { withRetryAfter } from './auth-http.js';
import { changeEmailBody, changePasswordBody } from './sessions.schemas.js';
import { sessionOf, sessionUserId } from './session-user.js';

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
  defineRoute({
    method: 'post',
    path: '/users/@me/password',
    summary: 'Change the password (the current one is needed); ends every other session',
    tag: 'Accounts',
    auth: 'session',
    body: changePasswordBody,
    response: okResponse,
    handler: async ({ em, sql, auth, body, ctx }) => {
      await withRetryAfter(ctx, () =>
        changePassword({ em, sql, session: sessionOf(auth), ...body }),
      );
      return { success: true as const };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/users/@me/email',
    summary:
      'Change the email address (the current password is needed); a verification email follows and every other session ends',
    tag: 'Accounts',
    auth: 'session',
    body: changeEmailBody,
    response: userView,
    handler: async ({ em, sql, auth, body, ctx, deps }) => {
      const user = await withRetryAfter(ctx, () =>
        changeEmail({ em, sql, engine: deps.engine, session: sessionOf(auth), ...body }),
      );
      return toUserView(user);
    },
  }),
];
