import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { Card } from '../components/card';
import { EmptyState } from '../components/empty-state';
import { ErrorState, Loading } from '../components/states';
import { formatNumber } from '../lib/format';
import type { Granularity } from './analytics-search';
import { SERIES, seriesColor, seriesLabel, totalsOf } from './series';
import { TimeseriesChart } from './timeseries-chart';
import { TimeseriesTable } from './timeseries-table';

/** Mail over time in the range: totals per series, a line chart and its figures as a table. */
export function TimeseriesCard({
  projectId,
  range,
  granularity,
  periodLabel,
}: {
  projectId: string;
  range: { from: string; to: string };
  granularity: Granularity;
  periodLabel: string;
}) {
  const series = useQuery({
    queryKey: ['project', projectId, 'analytics-timeseries', range.from, range.to, granularity],
    queryFn: () =>
      unwrap(api.GET('/analytics/timeseries', { params: { query: { ...range, granularity } } })),
  });
  const totals = series.data ? totalsOf(series.data.buckets) : undefined;
  const summary = totals
    ? `${periodLabel}, per ${granularity} (UTC): ${SERIES.map((s) => `${formatNumber(totals[s])} ${seriesLabel(s).toLowerCase()}`).join(', ')}.`
    : '';

  return (
    <Card title="Mail over time">
      {series.isPending ? (
        <Loading label="Loading the time series" />
      ) : series.isError ? (
        <ErrorState error={series.error} />
      ) : !totals || SERIES.every((s) => totals[s] === 0) ? (
        <EmptyState title="No mail in this period">
          Sends, deliveries, opens and clicks show here once the project sends email.
        </EmptyState>
      ) : (
        <figure aria-labelledby="timeseries-summary">
          <ul className="mb-4 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
            {SERIES.map((s) => (
              <li key={s} className="rounded-md border border-line px-3 py-2">
                <span className="flex items-center gap-1.5 text-xs text-muted">
                  <span
                    aria-hidden
                    className="size-2 rounded-full"
                    style={{ backgroundColor: seriesColor(s) }}
                  />
                  {seriesLabel(s)}
                </span>
                <span className="text-lg font-semibold">{formatNumber(totals[s])}</span>
              </li>
            ))}
          </ul>
          <TimeseriesChart
            buckets={series.data.buckets}
            granularity={granularity}
            title={`Mail per ${granularity}`}
            summary={summary}
          />
          <figcaption id="timeseries-summary" className="mt-2 text-xs text-muted">
            {summary}
          </figcaption>
          <TimeseriesTable buckets={series.data.buckets} granularity={granularity} />
        </figure>
      )}
    </Card>
  );
}
