import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { Card } from '../components/card';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { formatNumber } from '../lib/format';

type EventCount = ResponseOf<'/analytics/top-events', 'get'>['events'][number];

/** The events the project tracked most often in the window (not the service's own). */
export function TopEventsCard({
  projectId,
  range,
}: {
  projectId: string;
  range: { from: string; to: string };
}) {
  const top = useQuery({
    queryKey: ['project', projectId, 'analytics-top-events', range.from, range.to],
    queryFn: () =>
      unwrap(api.GET('/analytics/top-events', { params: { query: { ...range, limit: 10 } } })),
  });
  return (
    <Card title="Top events">
      {top.isPending ? (
        <Loading label="Loading events" />
      ) : top.isError ? (
        <ErrorState error={top.error} />
      ) : top.data.events.length === 0 ? (
        <p className="text-sm text-muted">
          No tracked event in this period. Events sent with{' '}
          <code className="whitespace-nowrap">POST /v1/track</code> show here.
        </p>
      ) : (
        <Table<EventCount>
          caption="Top events"
          rows={top.data.events}
          rowKey={(e) => e.name}
          columns={[
            { header: 'Event', cell: (e) => <span className="font-mono text-xs">{e.name}</span> },
            { header: 'Count', cell: (e) => formatNumber(e.count) },
          ]}
        />
      )}
    </Card>
  );
}
