import Stripe from 'stripe';
import type { BillingInvoice, PaymentProvider } from '../domain/shared/ports.js';

const iso = (seconds: number | null | undefined): string =>
  new Date((seconds ?? 0) * 1000).toISOString();

/**
 * The PaymentProvider on Stripe. `apiBase` (STRIPE_API_BASE) points the client at another
 * server, such as stripe-mock in tests; `priceId` is the subscription's price.
 */
export function createStripePayments({
  secretKey,
  webhookSecret,
  priceId,
  apiBase,
  meterEvent = 'mailwright_emails',
}: {
  secretKey: string;
  webhookSecret?: string;
  priceId?: string;
  apiBase?: string;
  /** The meter's event name (STRIPE_METER_EVENT). */
  meterEvent?: string;
}): PaymentProvider {
  const base = apiBase ? new URL(apiBase) : undefined;
  const stripe = new Stripe(secretKey, {
    ...(base && {
      host: base.hostname,
      port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
    }),
    maxNetworkRetries: 2,
    timeout: 20_000,
  });
  return {
    async createCustomer({ projectId, name, idempotencyKey }) {
      const customer = await stripe.customers.create(
        { name, metadata: { projectId } },
        { idempotencyKey },
      );
      return { id: customer.id };
    },
    async createCheckoutSession({ customerId, projectId, successUrl, cancelUrl }) {
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customerId,
        client_reference_id: projectId,
        metadata: { projectId },
        subscription_data: { metadata: { projectId } },
        success_url: successUrl,
        cancel_url: cancelUrl,
        ...(priceId && { line_items: [{ price: priceId, quantity: 1 }] }),
      });
      if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
      return { id: session.id, url: session.url };
    },
    async createPortalSession({ customerId, returnUrl }) {
      const session = await stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
      });
      return { url: session.url };
    },
    async listInvoices({ customerId, limit }): Promise<BillingInvoice[]> {
      const page = await stripe.invoices.list({ customer: customerId, limit });
      return page.data.map((invoice) => ({
        id: invoice.id ?? '',
        number: invoice.number ?? null,
        status: invoice.status ?? null,
        amount: invoice.amount_due,
        currency: invoice.currency,
        periodStart: iso(invoice.period_start),
        periodEnd: iso(invoice.period_end),
        hostedUrl: invoice.hosted_invoice_url ?? null,
      }));
    },
    async reportMeterEvent({ customerId, value, category, identifier, at }) {
      await stripe.billing.meterEvents.create({
        event_name: meterEvent,
        identifier,
        timestamp: Math.floor(at.getTime() / 1000),
        payload: { stripe_customer_id: customerId, value: String(value), category },
      });
    },
    verifyEvent({ rawBody, signature }) {
      if (!webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is not set');
      const event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
      return {
        id: event.id,
        type: event.type,
        object: event.data.object as unknown as Record<string, unknown>,
      };
    },
  };
}
