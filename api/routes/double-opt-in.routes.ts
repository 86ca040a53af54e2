import type { Context } from 'koa';
import { CONFIRMATION_LINK_DAYS } from '../../domain/contacts/double-opt-in-settings.pure.js';
import { setDoubleOptIn } from '../../domain/contacts/double-opt-in.service.js';
import { getColumnSetting } from '../../domain/projects/column-settings.service.js';
import type { OptInOutcome } from '../../domain/contacts/opt-in-page.pure.js';
import {
  confirmSubscription,
  confirmationPage,
  resendConfirmation,
} from '../../domain/contacts/opt-in-links.service.js';
import type { OptInMail } from '../../domain/contacts/opt-in-request.service.js';
import { subscribeFromForm } from '../../domain/contacts/subscribe-form.service.js';
import type { AppDeps } from '../deps.js';
import { defineRoute, type AuthInfo } from '../http/route.js';
import { clientOf, withRetryAfter } from './auth-http.js';
import {
  confirmationTokenParams,
  doubleOptInBody,
  doubleOptInView,
  subscribeBody,
  subscribeResult,
} from './double-opt-in.schemas.js';
import { optInPage, optInPageStatus } from './opt-in-pages.js';
import { projectIdOf } from './session-user.js';

/** Where this API's confirmation emails go: its delivery queue. */
export const optInMailOf = (deps: AppDeps): OptInMail => ({
  deliveryQueue: deps.sending.deliveryQueue,
  queueNotifier: deps.sending.queueNotifier,
});

export const isPublicKey = (auth: AuthInfo): boolean =>
  auth.principal?.type === 'key' && auth.principal.keyKind === 'public';

/**
 * For a public key caller: whether its subscriptions wait for a confirmation (the project's
 * double opt-in, read with its key) and where that email goes; undefined for any other caller.
 */
export const publicKeyConfirmation = (
  auth: AuthInfo,
  deps: AppDeps,
): (OptInMail & { required: boolean }) | undefined =>
  auth.principal?.type === 'key' && auth.principal.keyKind === 'public'
    ? { ...optInMailOf(deps), required: auth.principal.asksConfirmation }
    : undefined;

const linkOf = (deps: AppDeps, token: string) =>
  `${deps.links.publicUrl}/confirm-subscription/${token}`;

/** Answers a confirmation page itself (its status is the page's, not the route's). */
function answerPage(ctx: Context, outcome: OptInOutcome, link: string): undefined {
  ctx.status = optInPageStatus(outcome);
  ctx.type = 'text/html';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = optInPage(outcome, link);
  return undefined;
}

export const doubleOptInRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/double-opt-in',
    summary: 'Whether contacts who subscribe through the public key must confirm by email',
    tag: 'Contacts',
    auth: 'project',
    response: doubleOptInView,
    handler: async ({ sql, auth }) => ({
      ...(await getColumnSetting({ sql, projectId: projectIdOf(auth), setting: 'double_opt_in' })),
      linkValidDays: CONFIRMATION_LINK_DAYS,
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/double-opt-in',
    summary:
      'Turn double opt-in on or off and choose the confirmation email; a field left out takes its default (ADMIN)',
    tag: 'Contacts',
    auth: 'project',
    role: 'ADMIN',
    body: doubleOptInBody,
    response: doubleOptInView,
    handler: async ({ sql, auth, body }) => ({
      ...(await setDoubleOptIn({ sql, projectId: projectIdOf(auth), settings: body })),
      linkValidDays: CONFIRMATION_LINK_DAYS,
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/subscribe',
    summary:
      'A signup form: subscribe an address (public or secret key); with double opt-in on, it gets a confirmation email instead. The public key is limited to 20 an hour per client address',
    tag: 'Public API',
    // The public key is accepted here as on POST /v1/track.
    auth: 'track',
    body: subscribeBody,
    response: subscribeResult,
    handler: async ({ sql, deps, auth, body, ctx }) => ({
      success: true,
      data: await withRetryAfter(ctx, () =>
        subscribeFromForm({
          sql,
          mail: optInMailOf(deps),
          projectId: projectIdOf(auth),
          input: body,
          throttleIp: isPublicKey(auth) ? clientOf(ctx).ip : undefined,
        }),
      ),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/confirm-subscription/:token',
    summary:
      "A confirmation email's link: a page whose button confirms (opening it changes nothing)",
    tag: 'Tracking',
    auth: 'none',
    params: confirmationTokenParams,
    produces: 'text/html',
    handler: async ({ sql, deps, params, ctx }) =>
      answerPage(
        ctx,
        await confirmationPage({ sql, secret: deps.links.secret, token: params.token }),
        linkOf(deps, params.token),
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/confirm-subscription/:token',
    summary:
      'Confirm a subscription (fires contact.subscribed once); a link used again changes nothing; an expired one answers 410',
    tag: 'Tracking',
    auth: 'none',
    params: confirmationTokenParams,
    produces: 'text/html',
    handler: async ({ sql, deps, params, ctx }) =>
      answerPage(
        ctx,
        await confirmSubscription({
          sql,
          secret: deps.links.secret,
          token: params.token,
          dispatch: deps.automation,
        }),
        linkOf(deps, params.token),
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/confirm-subscription/:token/resend',
    summary:
      'Send a new confirmation email to a contact that still waits (from an expired link; counted like POST /v1/subscribe)',
    tag: 'Tracking',
    auth: 'none',
    params: confirmationTokenParams,
    produces: 'text/html',
    handler: async ({ sql, deps, params, ctx }) =>
      answerPage(
        ctx,
        await withRetryAfter(ctx, () =>
          resendConfirmation({
            sql,
            mail: optInMailOf(deps),
            secret: deps.links.secret,
            token: params.token,
            clientIp: clientOf(ctx).ip,
          }),
        ),
        linkOf(deps, params.token),
      ),
  }),
];
