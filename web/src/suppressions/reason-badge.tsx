import { REASON_COLORS, REASON_LABELS, type SuppressionReason } from './suppression-labels';

export function ReasonBadge({ reason }: { reason: SuppressionReason }) {
  return (
    <span className="inline-flex w-fit items-center gap-1.5 rounded-full border border-line px-2 py-0.5 text-xs font-medium whitespace-nowrap">
      <span
        aria-hidden
        className="size-2 rounded-full"
        style={{ backgroundColor: REASON_COLORS[reason] }}
      />
      {REASON_LABELS[reason]}
    </span>
  );
}
