import { ACTIVITY_COLORS, ACTIVITY_LABELS, type ActivityType } from './activity-types';

export function TypeBadge({ type }: { type: ActivityType }) {
  return (
    <span className="inline-flex w-fit items-center gap-1.5 rounded-full border border-line px-2 py-0.5 text-xs font-medium">
      <span
        aria-hidden
        className="size-2 rounded-full"
        style={{ backgroundColor: ACTIVITY_COLORS[type] }}
      />
      {ACTIVITY_LABELS[type]}
    </span>
  );
}
