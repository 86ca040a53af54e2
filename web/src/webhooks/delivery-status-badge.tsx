import type { DeliveryStatus } from './use-webhooks';

const TONES: Record<DeliveryStatus, string> = {
  PENDING: 'bg-accent/15 text-accent',
  SUCCEEDED: 'bg-ok/15 text-ok',
  FAILED: 'bg-danger/15 text-danger',
};

export const STATUS_LABELS: Record<DeliveryStatus, string> = {
  PENDING: 'Pending',
  SUCCEEDED: 'Succeeded',
  FAILED: 'Failed',
};

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <span
      data-testid="delivery-status"
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${TONES[status]}`}
    >
      {STATUS_LABELS[status]}
    </span>
  );
}

/** Enabled, failing (still enabled) or disabled, in words and colour. */
export function EndpointStateBadge({
  endpoint,
}: {
  endpoint: { enabled: boolean; failingSince: string | null };
}) {
  const [tone, label] = !endpoint.enabled
    ? ['bg-surface text-muted', 'Disabled']
    : endpoint.failingSince
      ? ['bg-danger/15 text-danger', 'Failing']
      : ['bg-ok/15 text-ok', 'Enabled'];
  return (
    <span
      data-testid="endpoint-state"
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${tone}`}
    >
      {label}
    </span>
  );
}
