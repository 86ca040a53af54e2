import type { SubscriptionState } from '../../domain/contacts/subscription-state.pure.js';

// Whether a contact waits for its double opt-in confirmation, read from its row: the one
// definition the contacts list, the contact views and the outbox's eligibility rule share.

/**
 * The contact `c` (a relation with the contacts columns) waits for its confirmation: one was
 * asked for since its subscription last changed, and it is not subscribed. Any later flip of
 * `subscribed` (the confirmation itself, an unsubscribe, a change by the project) ends the wait
 * without touching `opt_in_requested_at`.
 */
export const optInPendingSql = (c: string): string =>
  `(NOT ${c}.subscribed AND ${c}.opt_in_requested_at IS NOT NULL
    AND ${c}.opt_in_requested_at >= ${c}.subscription_changed_at)`;

const STATE = {
  subscribed: 'subscribed',
  pending: 'pending',
  unsubscribed: 'unsubscribed',
} as const satisfies { [S in SubscriptionState]: S };

/** The contact's SubscriptionState, as SQL text. */
export const subscriptionStateSql = (c: string): string =>
  `CASE WHEN ${c}.subscribed THEN '${STATE.subscribed}'
        WHEN ${optInPendingSql(c)} THEN '${STATE.pending}'
        ELSE '${STATE.unsubscribed}' END`;
