import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { EXECUTION_STATUSES } from '../../../domain/automation/execution-status.pure';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { PageHeader } from '../components/page-header';
import { Select } from '../components/select';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { formatDate } from '../lib/format';
import { STEP_LABELS } from './step-summary';
import { useWorkflow, workflowKey, type Execution } from './workflow-queries';

export function ExecutionsPage() {
  const { workflowId } = useParams({ from: '/app/workflows/$workflowId/executions' });
  const projectId = useProjectId();
  const workflow = useWorkflow(workflowId);
  const [status, setStatus] = useState('');
  const executions = useQuery({
    queryKey: [...workflowKey(projectId, workflowId), 'executions', status],
    queryFn: () =>
      unwrap(
        api.GET('/workflows/{id}/executions', {
          params: { path: { id: workflowId }, query: { limit: 100, status: status || undefined } },
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 3000,
  });
  if (workflow.isPending) return <Loading label="Loading the workflow" />;
  if (workflow.isError) return <ErrorState error={workflow.error} />;
  const w = workflow.data;
  const steps = new Map(w.steps.map((s) => [s.id, s]));

  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/workflows/$workflowId" params={{ workflowId }} className="text-accent underline">
          ← {w.name}
        </Link>
      </p>
      <PageHeader
        title={`${w.name}: executions`}
        description="Every contact's run, newest first."
      />
      <ul className="mb-4 flex flex-wrap gap-2 text-sm" aria-label="Executions per status">
        {EXECUTION_STATUSES.map((s) => (
          <li key={s} className="rounded-md border border-line bg-panel px-3 py-1.5">
            <span className="text-muted">{s.toLowerCase()}</span>{' '}
            <span className="font-semibold tabular-nums" data-testid={`count-${s}`}>
              {w.executions[s] ?? 0}
            </span>
          </li>
        ))}
      </ul>
      <div className="mb-4 max-w-xs">
        <Select
          label="Status"
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          options={[
            { value: '', label: 'Every status' },
            ...EXECUTION_STATUSES.map((s) => ({ value: s, label: s.toLowerCase() })),
          ]}
        />
      </div>
      {executions.isPending ? (
        <Loading label="Loading executions" />
      ) : executions.isError ? (
        <ErrorState error={executions.error} />
      ) : executions.data.executions.length === 0 ? (
        <p className="text-sm text-muted">No execution{status ? ' with this status' : ' yet'}.</p>
      ) : (
        <Table<Execution>
          caption="Executions"
          rows={executions.data.executions}
          rowKey={(x) => x.id}
          columns={[
            {
              header: 'Contact',
              cell: (x) => (
                <Link
                  to="/workflows/$workflowId/executions/$executionId"
                  params={{ workflowId, executionId: x.id }}
                  className="text-accent hover:underline"
                >
                  {x.contactEmail}
                </Link>
              ),
            },
            { header: 'Status', cell: (x) => x.status.toLowerCase() },
            {
              header: 'At step',
              cell: (x) => {
                const s = x.currentStepId ? steps.get(x.currentStepId) : undefined;
                return s ? s.name || STEP_LABELS[s.type] : '—';
              },
            },
            { header: 'Started', cell: (x) => formatDate(x.createdAt), wide: true },
          ]}
        />
      )}
    </>
  );
}
