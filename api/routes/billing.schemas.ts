import { z } from 'zod';
import {
  BILLING_CATEGORIES,
  BILLING_PLANS,
  type BillingCategory,
} from '../../domain/billing/billing-vocabulary.pure.js';

const cap = z.number().int().min(0).max(1_000_000_000).nullable();

const byCategory = <T extends z.ZodType>(schema: T) =>
  z.object(
    Object.fromEntries(BILLING_CATEGORIES.map((c) => [c, schema])) as Record<BillingCategory, T>,
  );

export const billingCapsView = byCategory(cap).meta({
  description: 'Monthly caps (calendar month, UTC) per category; null is no cap',
});

export const billingCapsBody = byCategory(cap.optional()).strict();

export const sessionUrlView = z.object({ url: z.url() });

export const consumptionView = z.object({
  plan: z.enum(BILLING_PLANS),
  subscriptionStatus: z.string().nullable(),
  period: z.object({ start: z.string(), end: z.string() }),
  categories: byCategory(
    z.object({
      used: z.number().int(),
      cap: cap,
      warning: z
        .object({ at: z.string(), used: z.number().int(), cap: z.number().int() })
        .nullable()
        .meta({
          description:
            'The `billing.limit_warning` event of this period, recorded once when usage reached 80 % of the cap',
        }),
    }),
  ),
});

export const invoicesView = z.array(
  z.object({
    id: z.string(),
    number: z.string().nullable(),
    status: z.string().nullable(),
    amount: z.number().int().meta({ description: "In the currency's smallest unit" }),
    currency: z.string(),
    periodStart: z.string(),
    periodEnd: z.string(),
    hostedUrl: z.string().nullable(),
  }),
);
