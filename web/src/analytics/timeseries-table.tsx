import { useState } from 'react';
import { Table } from '../components/table';
import { formatNumber } from '../lib/format';
import { bucketLabel, type Granularity } from './analytics-search';
import { SERIES, seriesLabel, type Bucket } from './series';

/** The chart's figures as a table, for whoever reads numbers rather than lines. */
export function TimeseriesTable({
  buckets,
  granularity,
}: {
  buckets: Bucket[];
  granularity: Granularity;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details className="mt-3 text-sm" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer text-accent">Show the figures as a table</summary>
      {open ? (
        <div className="mt-2 max-h-96 overflow-y-auto">
          <Table<Bucket>
            caption="Mail per period (UTC)"
            rows={buckets}
            rowKey={(b) => b.start}
            columns={[
              { header: 'Period (UTC)', cell: (b) => bucketLabel(b.start, granularity) },
              ...SERIES.map((s) => ({
                header: seriesLabel(s),
                cell: (b: Bucket) => formatNumber(b[s]),
              })),
            ]}
          />
        </div>
      ) : null}
    </details>
  );
}
