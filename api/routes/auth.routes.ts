import type { Context } from 'koa';
import { z } from 'zod';
import {
  logIn,
  requestEmailVerification,
  requestPasswordReset,
  resetPassword,
  signUp,
  toUserView,
  verifyEmail,
} from '../../domain/accounts/accounts.service.js';
import { SESSION_COOKIE } from '../../domain/accounts/sessions.js';
import { endSessionOfToken } from '../../domain/accounts/sessions.service.js';
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { clientOf, setSessionCookie, withRetryAfter } from './auth-http.js';
import { resetPasswordPage, verifyEmailPage } from './auth-pages.js';
import {
  emailBody,
  loginBody,
  okResponse,
  resetPasswordBody,
  signupBody,
  tokenBody,
  tokenQuery,
  userView,
} from './auth.schemas.js';

const ok = { success: true as const };

/** Ends the session the cookie names on the server, then clears the cookie. */
async function logOut({ ctx, deps }: { ctx: Context; deps: AppDeps }) {
  await endSessionOfToken({
    sql: deps.sql,
    sessionSecret: deps.accounts.sessionSecret,
    token: ctx.cookies.get(SESSION_COOKIE),
  });
  setSessionCookie(ctx, deps.http, null);
  return ok;
}

const logoutRoute = (method: 'get' | 'post') =>
  defineRoute({
    method,
    path: '/auth/logout',
    summary: 'End the session on the server and clear its cookie',
    tag: 'Accounts',
    auth: 'none',
    response: okResponse,
    handler: logOut,
  });

export const authRoutes = () => [
  defineRoute({
    method: 'post',
    path: '/auth/signup',
    summary: 'Create an account; a verification email follows',
    tag: 'Accounts',
    auth: 'none',
    body: signupBody,
    status: 201,
    response: userView,
    handler: async ({ body, em, sql, deps, ctx }) => {
      const { user, sessionToken } = await withRetryAfter(ctx, () =>
        signUp({
          em,
          sql,
          client: clientOf(ctx),
          ...deps.accounts,
          email: body.email,
          password: body.password,
          name: body.name,
        }),
      );
      setSessionCookie(ctx, deps.http, sessionToken);
      return toUserView(user);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/login',
    summary: 'Log in with email and password; sets the session cookie',
    tag: 'Accounts',
    auth: 'none',
    body: loginBody,
    response: userView,
    handler: async ({ body, em, sql, deps, ctx }) => {
      const { user, sessionToken } = await withRetryAfter(ctx, () =>
        logIn({
          em,
          sql,
          client: clientOf(ctx),
          sessionSecret: deps.accounts.sessionSecret,
          email: body.email,
          password: body.password,
        }),
      );
      setSessionCookie(ctx, deps.http, sessionToken);
      return toUserView(user);
    },
  }),
  logoutRoute('get'),
  logoutRoute('post'),
  defineRoute({
    method: 'get',
    path: '/auth/oauth-config',
    summary: 'OAuth providers configured on this installation',
    tag: 'Accounts',
    auth: 'none',
    response: z.object({
      github: z.object({ enabled: z.boolean() }),
      google: z.object({ enabled: z.boolean() }),
    }),
    handler: async () => ({ github: { enabled: false }, google: { enabled: false } }),
  }),
  defineRoute({
    method: 'post',
    path: '/auth/verify-email',
    summary: 'Verify the account with the token from the email link (single use)',
    tag: 'Accounts',
    auth: 'none',
    body: tokenBody,
    response: userView,
    handler: async ({ body, em }) => toUserView(await verifyEmail({ em, token: body.token })),
  }),
  defineRoute({
    method: 'get',
    path: '/auth/verify-email',
    summary: 'The page an email verification link opens',
    tag: 'Accounts',
    auth: 'none',
    query: tokenQuery,
    produces: 'text/html',
    handler: async ({ ctx }) => {
      ctx.type = 'text/html';
      return verifyEmailPage();
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/request-verification',
    summary: 'Send the verification email again',
    tag: 'Accounts',
    auth: 'none',
    body: emailBody,
    status: 202,
    response: okResponse,
    handler: async ({ body, em, sql, deps, ctx }) => {
      const client = clientOf(ctx);
      await withRetryAfter(ctx, () =>
        requestEmailVerification({ em, sql, client, engine: deps.engine, email: body.email }),
      );
      return ok;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/request-password-reset',
    summary: 'Send a password reset email (the answer is the same for unknown addresses)',
    tag: 'Accounts',
    auth: 'none',
    body: emailBody,
    status: 202,
    response: okResponse,
    handler: async ({ body, em, sql, deps, ctx }) => {
      const client = clientOf(ctx);
      await withRetryAfter(ctx, () =>
        requestPasswordReset({ em, sql, client, engine: deps.engine, email: body.email }),
      );
      return ok;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/reset-password',
    summary:
      'Set a new password with the token from the email link (single use); ends every session',
    tag: 'Accounts',
    auth: 'none',
    body: resetPasswordBody,
    response: okResponse,
    handler: async ({ body, em, sql }) => {
      await resetPassword({ em, sql, token: body.token, password: body.password });
      return ok;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/auth/reset-password',
    summary: 'The page a password reset link opens',
    tag: 'Accounts',
    auth: 'none',
    query: tokenQuery,
    produces: 'text/html',
    handler: async ({ ctx }) => {
      ctx.type = 'text/html';
      return resetPasswordPage();
    },
  }),
];
