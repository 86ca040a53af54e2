import { STATE_COLORS, STATE_LABELS, type SubscriptionState } from './subscription-labels';

/**
 * A contact's subscription state: subscribed, awaiting its confirmation, or unsubscribed. On a
 * phone a long label wraps inside the badge rather than pushing the list wider than the screen.
 */
export function SubscriptionBadge({ state }: { state: SubscriptionState }) {
  return (
    <span
      data-testid="subscription-state"
      className="inline-flex w-fit items-center gap-1.5 rounded-xl border border-line px-2 py-0.5 text-xs font-medium sm:rounded-full sm:whitespace-nowrap"
    >
      <span
        aria-hidden
        className="size-2 shrink-0 rounded-full"
        style={{ backgroundColor: STATE_COLORS[state] }}
      />
      {STATE_LABELS[state]}
    </span>
  );
}
