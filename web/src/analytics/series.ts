import type { ResponseOf } from '../api/types';
import { ACTIVITY_COLORS, ACTIVITY_LABELS } from '../activity/activity-types';

export type Timeseries = ResponseOf<'/analytics/timeseries', 'get'>;
export type Bucket = Timeseries['buckets'][number];

export const SERIES = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;
export type Series = (typeof SERIES)[number];

export const seriesLabel = (s: Series): string => ACTIVITY_LABELS[s];
export const seriesColor = (s: Series): string => ACTIVITY_COLORS[s];

export function totalsOf(buckets: Bucket[]): Record<Series, number> {
  const totals = Object.fromEntries(SERIES.map((s) => [s, 0])) as Record<Series, number>;
  for (const b of buckets) for (const s of SERIES) totals[s] += b[s];
  return totals;
}
