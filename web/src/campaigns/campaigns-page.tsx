import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { EmptyState } from '../components/empty-state';
import { PageHeader } from '../components/page-header';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { useToast } from '../components/toast';
import { formatDate, formatNumber } from '../lib/format';
import { campaignsKey, type Campaign } from './campaign-queries';
import { StatusBadge } from './status-badge';

const AUDIENCES: Record<Campaign['audienceType'], string> = {
  ALL: 'Every contact',
  SEGMENT: 'A segment',
  FILTERED: 'A filter',
};
// A rate is null when the campaign did not track what it measures.
const percent = (fraction: number | null) =>
  fraction === null ? 'not tracked' : `${(fraction * 100).toFixed(1)}%`;

export function CampaignsPage() {
  const projectId = useProjectId();
  const navigate = useNavigate();
  const campaigns = useQuery({
    queryKey: [...campaignsKey(projectId), 'list'],
    queryFn: async () =>
      (await unwrap(api.GET('/campaigns', { params: { query: { limit: 100 } } }))).data,
  });
  // The figures of every campaign that began sending, in one request (not one per row).
  const figures = useQuery({
    queryKey: [...campaignsKey(projectId), 'figures'],
    queryFn: () =>
      unwrap(api.GET('/analytics/campaign-stats', { params: { query: { limit: 100 } } })),
    select: (d) => new Map(d.campaigns.map((c) => [c.id, c])),
  });
  const segments = useQuery({
    queryKey: ['project', projectId, 'segments'],
    queryFn: () => unwrap(api.GET('/segments')),
    select: (list) => new Map(list.map((s) => [s.id, s])),
  });
  const create = () => void navigate({ to: '/campaigns/new' });

  return (
    <>
      <PageHeader
        title="Campaigns"
        description="One email to an audience, now or at a time you choose."
        actions={<Button onClick={create}>New campaign</Button>}
      />
      {campaigns.isPending ? (
        <Loading label="Loading campaigns" />
      ) : campaigns.isError ? (
        <ErrorState error={campaigns.error} />
      ) : campaigns.data.campaigns.length === 0 ? (
        <EmptyState
          title="No campaigns yet"
          action={<Button onClick={create}>Write a campaign</Button>}
        >
          Send to every contact, a segment, or a filter, from a template or written here.
        </EmptyState>
      ) : (
        <Table<Campaign>
          caption="Campaigns"
          rows={campaigns.data.campaigns}
          rowKey={(c) => c.id}
          columns={[
            {
              header: 'Name',
              cell: (c) => (
                <Link
                  to="/campaigns/$campaignId"
                  params={{ campaignId: c.id }}
                  className="font-medium text-accent hover:underline"
                >
                  {c.name}
                </Link>
              ),
            },
            { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
            {
              header: 'Audience',
              cell: (c) => {
                if (c.audienceType !== 'SEGMENT') return AUDIENCES[c.audienceType];
                const segment = segments.data?.get(c.segmentId ?? '');
                return segment
                  ? `${segment.name} (${formatNumber(segment.memberCount)})`
                  : 'A deleted segment';
              },
              wide: true,
            },
            {
              header: 'Scheduled',
              cell: (c) => (c.scheduledAt ? formatDate(c.scheduledAt) : '—'),
              wide: true,
            },
            {
              header: 'Sent · opened · clicked',
              cell: (c) => {
                const f = figures.data?.get(c.id);
                return f ? (
                  <Link
                    to="/campaigns/$campaignId/stats"
                    params={{ campaignId: c.id }}
                    className="tabular-nums hover:underline"
                  >
                    {formatNumber(f.sent)} · {percent(f.openRate)} · {percent(f.clickRate)}
                  </Link>
                ) : (
                  <span className="text-muted">—</span>
                );
              },
            },
            { header: '', cell: (c) => <DuplicateButton campaign={c} /> },
          ]}
        />
      )}
    </>
  );
}

function DuplicateButton({ campaign }: { campaign: Campaign }) {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const duplicate = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/campaigns/{id}/duplicate', { params: { path: { id: campaign.id } } })),
    onSuccess: async ({ data }) => {
      await queryClient.invalidateQueries({ queryKey: campaignsKey(projectId) });
      toast(`Duplicated as ${data.name}`);
      await navigate({ to: '/campaigns/$campaignId', params: { campaignId: data.id } });
    },
    onError: (error) => toast(error.message, 'error'),
  });
  return (
    <Button
      variant="ghost"
      busy={duplicate.isPending}
      aria-label={`Duplicate ${campaign.name}`}
      onClick={() => duplicate.mutate()}
    >
      Duplicate
    </Button>
  );
}
