import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { EmptyState } from '../components/empty-state';
import { PageHeader } from '../components/page-header';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { formatDate, formatNumber } from '../lib/format';
import { segmentsKey, type Segment } from './segment-queries';

export function SegmentsPage() {
  const projectId = useProjectId();
  const navigate = useNavigate();
  const segments = useQuery({
    queryKey: segmentsKey(projectId),
    queryFn: () => unwrap(api.GET('/segments')),
  });
  const create = () => void navigate({ to: '/segments/new' });

  return (
    <>
      <PageHeader
        title="Segments"
        description="Groups of contacts: by a filter that stays current, or a list you keep."
        actions={<Button onClick={create}>New segment</Button>}
      />
      {segments.isPending ? (
        <Loading label="Loading segments" />
      ) : segments.isError ? (
        <ErrorState error={segments.error} />
      ) : segments.data.length === 0 ? (
        <EmptyState
          title="No segments yet"
          action={<Button onClick={create}>Build a segment</Button>}
        >
          A segment is an audience for campaigns and a trigger for workflows.
        </EmptyState>
      ) : (
        <Table<Segment>
          caption="Segments"
          rows={segments.data}
          rowKey={(s) => s.id}
          columns={[
            {
              header: 'Name',
              cell: (s) => (
                <Link
                  to="/segments/$segmentId"
                  params={{ segmentId: s.id }}
                  className="font-medium text-accent hover:underline"
                >
                  {s.name}
                </Link>
              ),
            },
            { header: 'Type', cell: (s) => (s.type === 'DYNAMIC' ? 'Dynamic' : 'Static') },
            {
              header: 'Members',
              cell: (s) => <span className="tabular-nums">{formatNumber(s.memberCount)}</span>,
            },
            {
              header: 'Tracked',
              cell: (s) => (s.trackMembership ? 'Yes' : 'No'),
              wide: true,
            },
            { header: 'Counted', cell: (s) => formatDate(s.memberCountAt), wide: true },
          ]}
        />
      )}
    </>
  );
}
