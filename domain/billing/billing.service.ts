import {
  consumption,
  findCap,
  findLimitWarnings,
  findProjectBilling,
  findProjectOfCustomer,
  keepCustomerId,
  listCaps,
  recordStripeEvent,
  replaceCaps,
  setSubscription,
  takeFromCap,
} from '../../db/sql/billing.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { DomainError, unavailable } from '../shared/errors.js';
import type { BillingInvoice, PaymentEvent, PaymentProvider } from '../shared/ports.js';
import { cleanStorableText } from '../shared/storable-text.pure.js';
import {
  BILLING_CATEGORIES,
  billingPeriod,
  planOfSubscriptionStatus,
  type BillingCategory,
  type BillingPlan,
} from './billing-vocabulary.pure.js';

/** Billing as the installation has it: off (no STRIPE_SECRET_KEY), or on through a provider. */
export interface BillingDeps {
  sql: Sql;
  payments?: PaymentProvider;
  /** Where checkout and the portal send the user back. */
  publicUrl: string;
}

export type BillingCaps = Record<BillingCategory, number | null>;

export interface BillingConsumption {
  plan: BillingPlan;
  subscriptionStatus: string | null;
  period: { start: string; end: string };
  categories: Record<
    BillingCategory,
    {
      used: number;
      cap: number | null;
      /** This period's `billing.limit_warning` (the latest, should the cap have changed). */
      warning: { at: string; used: number; cap: number } | null;
    }
  >;
}

function requirePayments(payments: PaymentProvider | undefined): PaymentProvider {
  if (!payments) {
    throw new DomainError('BAD_REQUEST', 'Billing is off on this installation', {
      suggestion:
        'Set STRIPE_SECRET_KEY (and STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID) to turn it on.',
    });
  }
  return reachableOrUnavailable(payments);
}

/**
 * The provider as a request uses it: a call that fails upstream (Stripe unreachable, timing out,
 * or answering an error) is a 503 carrying the failure as its cause, never an unhandled 500.
 */
function reachableOrUnavailable(payments: PaymentProvider): PaymentProvider {
  const upstream =
    <I, O>(call: (input: I) => Promise<O>) =>
    async (input: I): Promise<O> => {
      try {
        return await call(input);
      } catch (error) {
        if (error instanceof DomainError) throw error;
        throw unavailable(
          'The payment provider could not be reached',
          'Try again in a minute.',
          error,
        );
      }
    };
  return {
    createCustomer: upstream((input) => payments.createCustomer(input)),
    createCheckoutSession: upstream((input) => payments.createCheckoutSession(input)),
    createPortalSession: upstream((input) => payments.createPortalSession(input)),
    listInvoices: upstream((input) => payments.listInvoices(input)),
    reportMeterEvent: (input) => payments.reportMeterEvent(input),
    verifyEvent: (input) => payments.verifyEvent(input),
  };
}

/** One project's billing, as the use cases that read or change it name it. */
type ProjectBilling = BillingDeps & { projectId: string };

/**
 * The provider (billing must be on) and the project's Stripe customer, created once (a retried
 * creation returns the same one).
 */
async function billedCustomer({
  sql,
  payments,
  projectId,
}: ProjectBilling): Promise<{ provider: PaymentProvider; customerId: string }> {
  const provider = requirePayments(payments);
  const billing = await findProjectBilling(sql, { projectId });
  if (billing.stripe_customer_id) return { provider, customerId: billing.stripe_customer_id };
  const customer = await provider.createCustomer({
    projectId,
    name: billing.project_name,
    idempotencyKey: `mailwright-customer-${projectId}`,
  });
  return {
    provider,
    customerId: await keepCustomerId(sql, { projectId, customerId: customer.id }),
  };
}

/** Where Stripe sends the user back to: the dashboard, told how billing went. */
const backTo = ({ publicUrl, projectId }: ProjectBilling, billing: string): string =>
  `${publicUrl}/?billing=${billing}&project=${projectId}`;

/** A Stripe Checkout session for the project's subscription; answers its URL. */
export async function startCheckout(input: ProjectBilling): Promise<{ url: string }> {
  const { provider, customerId } = await billedCustomer(input);
  const session = await provider.createCheckoutSession({
    customerId,
    projectId: input.projectId,
    successUrl: backTo(input, 'success'),
    cancelUrl: backTo(input, 'cancelled'),
  });
  return { url: session.url };
}

/** A Stripe billing-portal session for the project's customer; answers its URL. */
export async function openBillingPortal(input: ProjectBilling): Promise<{ url: string }> {
  const { provider, customerId } = await billedCustomer(input);
  return provider.createPortalSession({ customerId, returnUrl: backTo(input, 'portal') });
}

/** Every category's cap, null where there is none. */
async function capsOf(sql: Sql, projectId: string): Promise<BillingCaps> {
  const caps = Object.fromEntries(BILLING_CATEGORIES.map((c) => [c, null])) as BillingCaps;
  for (const row of await listCaps(sql, { projectId })) caps[row.category] = row.monthly_cap;
  return caps;
}

export async function getBillingCaps({ sql, projectId }: ProjectBilling): Promise<BillingCaps> {
  return capsOf(sql, projectId);
}

/** Replaces the caps: a category left out or null has none. */
export async function setBillingCaps({
  sql,
  projectId,
  caps,
}: BillingDeps & {
  projectId: string;
  caps: Partial<BillingCaps>;
}): Promise<BillingCaps> {
  await replaceCaps(sql, {
    projectId,
    caps: BILLING_CATEGORIES.flatMap((category) => {
      const cap = caps[category];
      return cap === null || cap === undefined ? [] : [{ category, cap }];
    }),
  });
  return capsOf(sql, projectId);
}

export async function getBillingConsumption({
  sql,
  projectId,
  now = new Date(),
}: BillingDeps & { projectId: string; now?: Date }): Promise<BillingConsumption> {
  const period = billingPeriod(now);
  const [billing, used, caps, warnings] = await Promise.all([
    findProjectBilling(sql, { projectId }),
    consumption(sql, { projectId, start: period.start, end: period.end }),
    capsOf(sql, projectId),
    findLimitWarnings(sql, { projectId, start: period.start }),
  ]);
  const warningOf = (category: BillingCategory) => {
    const w = warnings.find((row) => row.category === category);
    return w ? { at: new Date(w.created_at).toISOString(), used: w.used, cap: w.cap } : null;
  };
  return {
    plan: billing.plan,
    subscriptionStatus: billing.subscription_status,
    period: { start: `${period.start}T00:00:00.000Z`, end: period.end.toISOString() },
    categories: Object.fromEntries(
      BILLING_CATEGORIES.map((c) => [c, { used: used[c], cap: caps[c], warning: warningOf(c) }]),
    ) as BillingConsumption['categories'],
  };
}

/** The customer's invoices from Stripe, newest first; none before the project has a customer. */
export async function listBillingInvoices({
  sql,
  payments,
  projectId,
}: ProjectBilling): Promise<BillingInvoice[]> {
  const provider = requirePayments(payments);
  const billing = await findProjectBilling(sql, { projectId });
  if (!billing.stripe_customer_id) return [];
  return provider.listInvoices({ customerId: billing.stripe_customer_id, limit: 24 });
}

/**
 * The category's monthly cap when the project has one, billing on or off (an operator caps
 * projects without Stripe). Read before the work, so that mail without a cap keeps its plain
 * path (no transaction, no usage row).
 */
export async function capOf({
  sql,
  projectId,
  category,
}: {
  sql: Sql;
  projectId: string;
  category: BillingCategory;
}): Promise<number | undefined> {
  return findCap(sql, { projectId, category });
}

/**
 * Takes `count` emails of a category from the project's monthly cap inside `tx` (the transaction
 * that accepts them), or refuses with 402 when the cap would be passed. `cap` is the one the
 * caller read (capOf); the statement checks against the cap as it stands at that moment.
 */
export async function chargeCap({
  tx,
  projectId,
  category,
  count,
  cap,
  now = new Date(),
}: {
  tx: Sql;
  projectId: string;
  category: BillingCategory;
  count: number;
  cap: number;
  now?: Date;
}): Promise<void> {
  if (count === 0) return;
  const period = billingPeriod(now);
  const taken = await takeFromCap(tx, {
    projectId,
    category,
    start: period.start,
    end: period.end,
    count,
  });
  if (!taken) throw capExceeded(category, cap);
}

const capExceeded = (category: BillingCategory, cap: number): DomainError =>
  new DomainError(
    'BILLING_LIMIT_EXCEEDED',
    `This would pass the project's monthly ${category} cap of ${cap} emails`,
    { suggestion: 'Raise the cap in the billing limits, or wait for the next month (UTC).' },
  );

/**
 * Refuses (402) mail that would pass the category's cap given this month's email rows; a check
 * ahead of the work (a campaign's send call), not the atomic charge (chargeCap) that follows.
 */
export async function requireCapRoom({
  sql,
  projectId,
  category,
  count,
  now = new Date(),
}: {
  sql: Sql;
  projectId: string;
  category: BillingCategory;
  count: number;
  now?: Date;
}): Promise<void> {
  const cap = await findCap(sql, { projectId, category });
  if (cap === undefined) return;
  const period = billingPeriod(now);
  const used = await consumption(sql, { projectId, start: period.start, end: period.end });
  if (used[category] + count > cap) throw capExceeded(category, cap);
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const metadataProject = (object: Record<string, unknown>): string | null =>
  str((object.metadata as Record<string, unknown> | undefined)?.projectId);

/**
 * A Stripe webhook: the signature is checked on the raw body (a bad or stale one is 400 and
 * changes nothing); checkout completion and subscription changes keep the project's plan and
 * status; each event id is applied once, in the transaction that records it.
 */
export async function receivePaymentEvent({
  sql,
  payments,
  rawBody,
  signature,
}: BillingDeps & { rawBody: string; signature: string | undefined }): Promise<{
  applied: boolean;
}> {
  const provider = requirePayments(payments);
  let event: PaymentEvent;
  try {
    // Verified, but still text from elsewhere: kept cleaned of what PostgreSQL cannot store.
    event = cleanStorableText(provider.verifyEvent({ rawBody, signature: signature ?? '' }));
  } catch {
    throw new DomainError('BAD_REQUEST', 'The Stripe signature does not match, or is too old');
  }
  return sql.transaction(async (tx) => {
    const object = event.object;
    const customerId = str(object.customer);
    const projectId =
      str(object.client_reference_id) ??
      metadataProject(object) ??
      (customerId ? ((await findProjectOfCustomer(tx, { customerId })) ?? null) : null);
    if (!(await recordStripeEvent(tx, { id: event.id, type: event.type, projectId }))) {
      return { applied: false };
    }
    if (!projectId) return { applied: false };
    if (event.type === 'checkout.session.completed') {
      await setSubscription(tx, {
        projectId,
        customerId,
        plan: 'PAID',
        subscriptionId: str(object.subscription),
        status: 'active',
      });
      return { applied: true };
    }
    if (
      event.type === 'customer.subscription.created' ||
      event.type === 'customer.subscription.updated' ||
      event.type === 'customer.subscription.deleted'
    ) {
      const status =
        event.type === 'customer.subscription.deleted' ? 'canceled' : (str(object.status) ?? '');
      await setSubscription(tx, {
        projectId,
        customerId,
        plan: planOfSubscriptionStatus(status),
        subscriptionId: str(object.id),
        status,
      });
      return { applied: true };
    }
    return { applied: false };
  });
}
