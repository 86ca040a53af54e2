import type { ResponseOf } from '../api/types';

export type SubscriptionState = ResponseOf<'/contacts/{id}', 'get'>['subscriptionState'];

/** Each state as people read it; the list's filter offers them in this order. */
export const STATE_LABELS: Record<SubscriptionState, string> = {
  subscribed: 'Subscribed',
  pending: 'Awaiting confirmation',
  unsubscribed: 'Unsubscribed',
};

export const STATE_COLORS: Record<SubscriptionState, string> = {
  subscribed: 'var(--color-ok)',
  pending: 'var(--color-warn)',
  unsubscribed: 'var(--color-muted)',
};

export const isSubscriptionState = (value: string): value is SubscriptionState =>
  value in STATE_LABELS;
