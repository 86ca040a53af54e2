import { OUTCOME_COLORS, OUTCOME_LABELS, type ReportOutcome } from './report-labels';

export function OutcomeBadge({ outcome }: { outcome: ReportOutcome }) {
  return (
    <span className="inline-flex w-fit items-center gap-1.5 rounded-full border border-line px-2 py-0.5 text-xs font-medium whitespace-nowrap">
      <span
        aria-hidden
        className="size-2 rounded-full"
        style={{ backgroundColor: OUTCOME_COLORS[outcome] }}
      />
      {OUTCOME_LABELS[outcome]}
    </span>
  );
}
