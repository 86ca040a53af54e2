import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { Card } from '../components/card';
import { Select } from '../components/select';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { formatNumber } from '../lib/format';
import { METRICS, type Metric } from './analytics-search';

type CampaignFigures = ResponseOf<'/analytics/top-campaigns', 'get'>['campaigns'][number];

// A rate is null when the campaign did not track what it measures.
const percent = (fraction: number | null): string =>
  fraction === null
    ? 'Not tracked'
    : fraction.toLocaleString(undefined, { style: 'percent', maximumFractionDigits: 1 });

/** The campaigns that sent mail, best first by the chosen metric. */
export function TopCampaignsCard({
  projectId,
  metric,
  onMetric,
}: {
  projectId: string;
  metric: Metric;
  onMetric: (metric: Metric) => void;
}) {
  const top = useQuery({
    queryKey: ['project', projectId, 'analytics-top-campaigns', metric],
    queryFn: () =>
      unwrap(api.GET('/analytics/top-campaigns', { params: { query: { metric, limit: 10 } } })),
  });
  return (
    <Card
      title="Top campaigns"
      actions={
        <Select
          label="Rank by"
          value={metric}
          onChange={(e) => onMetric(e.target.value as Metric)}
          options={METRICS}
          className="sm:flex-row sm:items-center sm:gap-2"
        />
      }
    >
      {top.isPending ? (
        <Loading label="Loading campaigns" />
      ) : top.isError ? (
        <ErrorState error={top.error} />
      ) : top.data.campaigns.length === 0 ? (
        <p className="text-sm text-muted">No campaign has sent mail yet.</p>
      ) : (
        <Table<CampaignFigures>
          caption="Top campaigns"
          rows={top.data.campaigns}
          rowKey={(c) => c.id}
          columns={[
            { header: 'Campaign', cell: (c) => <span className="font-medium">{c.name}</span> },
            { header: 'Sent', cell: (c) => formatNumber(c.sent) },
            { header: 'Opened', cell: (c) => percent(c.openRate) },
            { header: 'Clicked', cell: (c) => percent(c.clickRate), wide: true },
            { header: 'Bounced', cell: (c) => percent(c.bounceRate), wide: true },
          ]}
        />
      )}
    </Card>
  );
}
