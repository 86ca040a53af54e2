import {
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { bucketLabel, type Granularity } from './analytics-search';
import { SERIES, seriesColor, seriesLabel, type Bucket } from './series';

const axisTick = { fill: 'var(--color-muted)', fontSize: 12 };

/** Recharts, imported by the analytics page alone, so only its lazy chunk carries it. */
export function TimeseriesChart({
  buckets,
  granularity,
  title,
  summary,
}: {
  buckets: Bucket[];
  granularity: Granularity;
  title: string;
  summary: string;
}) {
  const data = buckets.map((b) => ({ ...b, label: bucketLabel(b.start, granularity) }));
  return (
    <div className="h-72 w-full sm:h-80">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart
          data={data}
          title={title}
          desc={summary}
          margin={{ top: 8, right: 8, left: -16 }}
        >
          <CartesianGrid stroke="var(--color-line)" strokeDasharray="3 3" />
          <XAxis dataKey="label" tick={axisTick} stroke="var(--color-line)" minTickGap={24} />
          <YAxis allowDecimals={false} tick={axisTick} stroke="var(--color-line)" />
          <Tooltip
            contentStyle={{
              background: 'var(--color-panel)',
              border: '1px solid var(--color-line)',
              borderRadius: 6,
              color: 'var(--color-fg)',
              fontSize: 12,
            }}
            labelStyle={{ color: 'var(--color-fg)', fontWeight: 600 }}
          />
          {SERIES.map((s) => (
            <Line
              key={s}
              type="linear"
              dataKey={s}
              name={seriesLabel(s)}
              stroke={seriesColor(s)}
              strokeWidth={2}
              dot={buckets.length <= 31}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
