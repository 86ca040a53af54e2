import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import { useProject } from '../api/use-project';
import { Card } from '../components/card';
import { PageHeader } from '../components/page-header';
import { ErrorState, Loading } from '../components/states';
import { formatNumber } from '../lib/format';
import { SetupChecklist } from './setup-checklist';

export function OverviewPage() {
  const { project } = useProject();
  const projectId = project?.id ?? '';
  const stats = useQuery({
    queryKey: ['project', projectId, 'activity-stats'],
    queryFn: () => unwrap(api.GET('/activity/stats')),
  });
  const recent = useQuery({
    queryKey: ['project', projectId, 'recent-count'],
    queryFn: () =>
      unwrap(api.GET('/activity/recent-count', { params: { query: { minutes: 60 } } })),
  });

  return (
    <>
      <PageHeader title="Overview" description={project ? `Project ${project.name}` : undefined} />
      <div className="grid gap-6 lg:grid-cols-[2fr_3fr]">
        <SetupChecklist projectId={projectId} />
        <Card title="Activity, last 30 days">
          {stats.isPending ? (
            <Loading />
          ) : stats.isError ? (
            <ErrorState error={stats.error} />
          ) : (
            <>
              <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
                {Object.entries(stats.data.counts).map(([type, count]) => (
                  <div key={type} className="rounded-md border border-line p-3">
                    <dt className="text-xs text-muted capitalize">{type}</dt>
                    <dd className="text-xl font-semibold">{formatNumber(count)}</dd>
                  </div>
                ))}
              </dl>
              <p className="mt-4 text-sm text-muted">
                {recent.data ? `${formatNumber(recent.data.count)} in the last hour. ` : null}
                <Link to="/contacts" className="text-accent underline">
                  Contacts
                </Link>
              </p>
            </>
          )}
        </Card>
      </div>
    </>
  );
}
