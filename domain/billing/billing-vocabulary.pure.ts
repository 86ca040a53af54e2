/** The kinds of mail a project's monthly caps and consumption are counted in. */
export const BILLING_CATEGORIES = ['transactional', 'campaigns', 'workflows', 'inbound'] as const;
export type BillingCategory = (typeof BILLING_CATEGORIES)[number];

/** A project's plan: FREE until a Stripe subscription is active, PAID while it is. */
export const BILLING_PLANS = ['FREE', 'PAID'] as const;
export type BillingPlan = (typeof BILLING_PLANS)[number];

/** Stripe subscription statuses under which the project keeps its paid plan. */
const PAYING_STATUSES = new Set(['active', 'trialing', 'past_due']);

export const planOfSubscriptionStatus = (status: string): BillingPlan =>
  PAYING_STATUSES.has(status) ? 'PAID' : 'FREE';

/** The share of a cap at which the project is warned once in the period. */
export const WARNING_SHARE = 0.8;

/** The calendar month (UTC) that `at` falls in: its first day, as YYYY-MM-DD, and its end. */
export function billingPeriod(at: Date): { start: string; end: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start: start.toISOString().slice(0, 10), end };
}
