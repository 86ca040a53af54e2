import type { ContactRow } from '../../db/sql/contacts.sql.js';
import type { SubscriptionState } from './subscription-state.pure.js';

export interface ContactView {
  id: string;
  email: string;
  subscribed: boolean;
  /** `pending`: waiting for its double opt-in confirmation (not subscribed until then). */
  subscriptionState: SubscriptionState;
  /** When a double opt-in confirmation was last asked for and last given, if ever. */
  optIn: { requestedAt: string | null; confirmedAt: string | null };
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

const isoOrNull = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

export function toContactView(row: ContactRow): ContactView {
  return {
    id: row.id,
    email: row.email,
    subscribed: row.subscribed,
    subscriptionState: row.subscription_state,
    optIn: {
      requestedAt: isoOrNull(row.opt_in_requested_at),
      confirmedAt: isoOrNull(row.opt_in_confirmed_at),
    },
    data: row.data ?? {},
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
