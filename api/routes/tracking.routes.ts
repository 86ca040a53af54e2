import { z } from 'zod';
import {
  followClick,
  recordOpen,
  setSubscription,
  subscriptionPage,
} from '../../domain/tracking/tracking.service.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import {
  confirmSubscribePage,
  confirmUnsubscribePage,
  donePage,
  managePage,
} from './tracking-pages.js';

const tokenParams = z.object({ token: z.string().min(10).max(4096) });
// A 1x1 transparent GIF.
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const html = (ctx: { type: string; set(k: string, v: string): void }, body: string): string => {
  ctx.type = 'text/html';
  ctx.set('Cache-Control', 'no-store');
  return body;
};

const subscriptionRoutes = (kind: 'unsubscribe' | 'subscribe'): AnyRoute[] => [
  defineRoute({
    method: 'get',
    path: `/${kind}/:token`,
    summary: `The ${kind} page an email links to (showing it changes nothing)`,
    tag: 'Tracking',
    auth: 'none',
    params: tokenParams,
    produces: 'text/html',
    handler: async ({ deps, params, ctx }) => {
      const page = await subscriptionPage({ ...deps.links, token: params.token });
      return html(
        ctx,
        kind === 'unsubscribe'
          ? confirmUnsubscribePage(page.email, page.unsubscribeUrl)
          : confirmSubscribePage(page.email, page.subscribeUrl),
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: `/${kind}/:token`,
    summary:
      kind === 'unsubscribe'
        ? 'Unsubscribe (RFC 8058 one-click target of List-Unsubscribe); repeating it changes nothing'
        : 'Subscribe again from an email link',
    tag: 'Tracking',
    auth: 'none',
    params: tokenParams,
    produces: 'text/html',
    handler: async ({ deps, params, ctx }) => {
      const contact = await setSubscription({
        ...deps.links,
        token: params.token,
        subscribed: kind === 'subscribe',
      });
      return html(ctx, donePage(contact.email, contact.subscribed));
    },
  }),
];

export const trackingRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/t/o/:token',
    summary: 'Open pixel: records email.opened',
    tag: 'Tracking',
    auth: 'none',
    rateLimit: false,
    params: tokenParams,
    produces: 'image/gif',
    handler: async ({ deps, params, ctx }) => {
      await recordOpen({ ...deps.links, token: params.token });
      ctx.type = 'image/gif';
      ctx.set('Cache-Control', 'no-store, max-age=0');
      return PIXEL;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/t/c/:token',
    summary:
      'Click redirect: records email.clicked and redirects to the link that was in the email',
    tag: 'Tracking',
    auth: 'none',
    rateLimit: false,
    params: tokenParams,
    status: 302,
    produces: 'text/plain',
    handler: async ({ deps, params, ctx }) => {
      const url = await followClick({ ...deps.links, token: params.token });
      ctx.status = 302;
      ctx.redirect(url);
      ctx.body = `Redirecting to ${url}`;
    },
  }),
  ...subscriptionRoutes('unsubscribe'),
  ...subscriptionRoutes('subscribe'),
  defineRoute({
    method: 'get',
    path: '/manage/:token',
    summary: 'Subscription preferences page an email links to',
    tag: 'Tracking',
    auth: 'none',
    params: tokenParams,
    produces: 'text/html',
    handler: async ({ deps, params, ctx }) => {
      const page = await subscriptionPage({ ...deps.links, token: params.token });
      return html(
        ctx,
        managePage(page.email, page.subscribed, page.unsubscribeUrl, page.subscribeUrl),
      );
    },
  }),
];
