import { useNavigate, useSearch } from '@tanstack/react-router';

export const PERIODS = [
  { value: '24h', label: 'Last 24 hours', hours: 24 },
  { value: '7d', label: 'Last 7 days', hours: 7 * 24 },
  { value: '30d', label: 'Last 30 days', hours: 30 * 24 },
  { value: '90d', label: 'Last 90 days', hours: 90 * 24 },
] as const;
export type Period = (typeof PERIODS)[number]['value'];

export const GRANULARITIES = [
  { value: 'hour', label: 'Hour' },
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
] as const;
export type Granularity = (typeof GRANULARITIES)[number]['value'];

export const METRICS = [
  { value: 'sent', label: 'Most sent' },
  { value: 'openRate', label: 'Best open rate' },
  { value: 'clickRate', label: 'Best click rate' },
] as const;
export type Metric = (typeof METRICS)[number]['value'];

export interface AnalyticsView {
  period: Period;
  granularity: Granularity;
  metric: Metric;
}

const DEFAULTS: AnalyticsView = { period: '7d', granularity: 'day', metric: 'sent' };

function oneOf<T extends string>(options: readonly { value: T }[], value: unknown, fallback: T): T {
  return options.find((o) => o.value === value)?.value ?? fallback;
}

/** The period, granularity and campaign ranking, kept in the URL (`?period=30d&granularity=hour`). */
export function useAnalyticsView(): {
  view: AnalyticsView;
  setView: (next: Partial<AnalyticsView>) => void;
} {
  const search: Record<string, unknown> = useSearch({ from: '/app/analytics' });
  const navigate = useNavigate();
  const view: AnalyticsView = {
    period: oneOf(PERIODS, search.period, DEFAULTS.period),
    granularity: oneOf(GRANULARITIES, search.granularity, DEFAULTS.granularity),
    metric: oneOf(METRICS, search.metric, DEFAULTS.metric),
  };
  const setView = (next: Partial<AnalyticsView>): void => {
    const merged = { ...view, ...next };
    const kept = Object.fromEntries(
      Object.entries(merged).filter(
        ([key, value]) => DEFAULTS[key as keyof AnalyticsView] !== value,
      ),
    );
    void navigate({ to: '/analytics', search: kept, replace: true });
  };
  return { view, setView };
}

/**
 * The window of a period, [from, to): `to` is the next full hour (stable while the page is open,
 * so the queries' keys are), `from` goes back the period and down to a bucket's start in UTC.
 */
export function windowOf(
  period: Period,
  granularity: Granularity,
  now: number,
): { from: string; to: string } {
  const hour = 3_600_000;
  const to = Math.ceil(now / hour) * hour;
  const hours = PERIODS.find((p) => p.value === period)?.hours ?? 24;
  let from = to - hours * hour;
  if (granularity !== 'hour') from = Math.floor(from / (24 * hour)) * 24 * hour;
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

/** A bucket's start as the axis shows it, in UTC like the buckets themselves. */
export function bucketLabel(start: string, granularity: Granularity): string {
  return new Date(start).toLocaleString(undefined, {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    ...(granularity === 'hour' ? { hour: '2-digit', minute: '2-digit', hour12: false } : {}),
  });
}
