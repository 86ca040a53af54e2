import {
  getBillingCaps,
  getBillingConsumption,
  listBillingInvoices,
  openBillingPortal,
  setBillingCaps,
  startCheckout,
} from '../../domain/billing/billing.service.js';
import { defineRoute } from '../http/route.js';
import {
  billingCapsBody,
  billingCapsView,
  consumptionView,
  invoicesView,
  sessionUrlView,
} from './billing.schemas.js';
import { projectIdParams } from './projects.schemas.js';

// With billing off (no STRIPE_SECRET_KEY) checkout, portal and invoices answer 400 saying so;
// caps and consumption work either way (billing off is not usage off).
export const billingRoutes = () => [
  defineRoute({
    method: 'post',
    path: '/users/@me/projects/:id/checkout',
    summary: "A Stripe Checkout session for the project's subscription (OWNER or ADMIN)",
    tag: 'Billing',
    auth: 'projectPath',
    role: 'ADMIN',
    params: projectIdParams,
    response: sessionUrlView,
    handler: async ({ deps, params }) => startCheckout({ ...deps.billing, projectId: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/users/@me/projects/:id/billing-portal',
    summary: "A Stripe billing-portal session for the project's customer (OWNER or ADMIN)",
    tag: 'Billing',
    auth: 'projectPath',
    role: 'ADMIN',
    params: projectIdParams,
    response: sessionUrlView,
    handler: async ({ deps, params }) =>
      openBillingPortal({ ...deps.billing, projectId: params.id }),
  }),
  defineRoute({
    method: 'get',
    path: '/users/@me/projects/:id/billing-limits',
    summary: 'Monthly caps per category (null: no cap)',
    tag: 'Billing',
    auth: 'projectPath',
    params: projectIdParams,
    response: billingCapsView,
    handler: async ({ deps, params }) => getBillingCaps({ ...deps.billing, projectId: params.id }),
  }),
  defineRoute({
    method: 'put',
    path: '/users/@me/projects/:id/billing-limits',
    summary: 'Replace the monthly caps; a category left out or null has none (OWNER or ADMIN)',
    tag: 'Billing',
    auth: 'projectPath',
    role: 'ADMIN',
    params: projectIdParams,
    body: billingCapsBody,
    response: billingCapsView,
    handler: async ({ deps, params, body }) =>
      setBillingCaps({ ...deps.billing, projectId: params.id, caps: body }),
  }),
  defineRoute({
    method: 'get',
    path: '/users/@me/projects/:id/billing-consumption',
    summary: "This calendar month's (UTC) counts per category, with the plan and caps",
    tag: 'Billing',
    auth: 'projectPath',
    params: projectIdParams,
    response: consumptionView,
    handler: async ({ deps, params }) =>
      getBillingConsumption({ ...deps.billing, projectId: params.id }),
  }),
  defineRoute({
    method: 'get',
    path: '/users/@me/projects/:id/billing-invoices',
    summary: "The project's invoices from Stripe, newest first",
    tag: 'Billing',
    auth: 'projectPath',
    params: projectIdParams,
    response: invoicesView,
    handler: async ({ deps, params }) =>
      listBillingInvoices({ ...deps.billing, projectId: params.id }),
  }),
];
