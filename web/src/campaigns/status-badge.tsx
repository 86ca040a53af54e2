import type { Campaign } from './campaign-queries';

const STATUS_TONES: Record<Campaign['status'], string> = {
  DRAFT: 'bg-surface text-muted',
  SCHEDULED: 'bg-accent/15 text-accent',
  SENDING: 'bg-accent/15 text-accent',
  SENT: 'bg-ok/15 text-ok',
  CANCELLED: 'bg-surface text-muted',
  FAILED: 'bg-danger/15 text-danger',
};

export function StatusBadge({ status }: { status: Campaign['status'] }) {
  return (
    <span
      data-testid="campaign-status"
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_TONES[status]}`}
    >
      {status.toLowerCase()}
    </span>
  );
}
