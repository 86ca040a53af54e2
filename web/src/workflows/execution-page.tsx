import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import {
  DELAY_UNIT_MS,
  type DelayUnit,
  type TransitionBranch,
} from '../../../domain/automation/step-type.pure';
import { assertNever } from '../../../domain/shared/assert-never.pure';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Card } from '../components/card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { Button } from '../components/button';
import { PageHeader } from '../components/page-header';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { TemporalRunLink } from '../components/temporal-link';
import { useToast } from '../components/toast';
import { formatDate } from '../lib/format';
import { STEP_LABELS } from './step-summary';
import { triggerLabel } from './trigger-panel';
import { WorkflowCanvas } from './workflow-canvas';
import {
  useTemplateNames,
  useWorkflow,
  workflowKey,
  type Execution,
  type Step,
  type Transition,
} from './workflow-queries';

type LogEntry = NonNullable<Execution['steps']>[number];
const active = (status: Execution['status']) => status === 'RUNNING' || status === 'WAITING';

/** The branch a logged step left by (undefined: its one plain transition). */
function branchLeft(entry: LogEntry): TransitionBranch | undefined {
  switch (entry.type) {
    case 'CONDITION':
      return entry.result?.matched === true ? 'yes' : 'no';
    case 'WAIT_FOR_EVENT':
      return entry.result?.timedOut === true ? 'timeout' : 'event';
    case 'SEND_EMAIL':
    case 'DELAY':
    case 'WEBHOOK':
    case 'UPDATE_CONTACT':
    case 'ADD_TAG':
    case 'EXIT':
      return undefined;
  }
  return assertNever(entry.type, 'step type');
}

/** The transitions an execution took: from each logged step to the next one it ran. */
function takenTransitions(log: LogEntry[], transitions: Transition[]): Set<string> {
  const ordered = [...log].sort((a, b) => a.seq - b.seq);
  const taken = new Set<string>(ordered[0] ? [`trigger->${ordered[0].stepId}`] : []);
  ordered.forEach((entry, i) => {
    const next = ordered[i + 1];
    if (!next || next.stepId === entry.stepId) return;
    const branch = branchLeft(entry);
    const t = transitions.find(
      (t) =>
        t.fromStepId === entry.stepId &&
        t.toStepId === next.stepId &&
        (branch === undefined || t.branch === branch),
    );
    if (t) taken.add(t.id);
  });
  return taken;
}

/** What an execution waits for at its step: a wake-up time, or an event (with its timeout). */
function waitingFor(step: Step | undefined, entry: LogEntry | undefined): string | undefined {
  if (!step || !entry) return undefined;
  const started = new Date(entry.startedAt).getTime();
  if (step.type === 'DELAY') {
    const ms = Number(step.config.amount) * DELAY_UNIT_MS[step.config.unit as DelayUnit];
    return `Wakes up ${formatDate(new Date(started + ms).toISOString())}`;
  }
  if (step.type === 'WAIT_FOR_EVENT') {
    const timeout = Number(step.config.timeoutSeconds);
    return `Waits for “${String(step.config.eventName)}”${
      timeout ? `, until ${formatDate(new Date(started + timeout * 1000).toISOString())}` : ''
    }`;
  }
  return undefined;
}

export function ExecutionPage() {
  const { workflowId, executionId } = useParams({
    from: '/app/workflows/$workflowId/executions/$executionId',
  });
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [cancelling, setCancelling] = useState(false);
  const workflow = useWorkflow(workflowId);
  const key = [...workflowKey(projectId, workflowId), 'execution', executionId];
  const execution = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(
        api.GET('/workflows/{id}/executions/{executionId}', {
          params: { path: { id: workflowId, executionId } },
        }),
      ),
    refetchInterval: (q) => (q.state.data && active(q.state.data.status) ? 1000 : false),
  });
  const cancel = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/workflows/{id}/executions/{executionId}', {
          params: { path: { id: workflowId, executionId } },
        }),
      ),
    onSuccess: async (data) => {
      setCancelling(false);
      queryClient.setQueryData(key, data);
      await queryClient.invalidateQueries({ queryKey: workflowKey(projectId, workflowId) });
      toast('Execution cancelled');
    },
    onError: (error) => toast(error.message, 'error'),
  });
  const templates = useTemplateNames();
  const log = execution.data?.steps;
  const transitions = workflow.data?.transitions;
  const info = useMemo(
    () => ({
      problems: new Map<string, string[]>(),
      templateNames: templates.data ?? new Map<string, string>(),
      visited: new Set((log ?? []).map((s) => s.stepId)),
      taken: takenTransitions(log ?? [], transitions ?? []),
      current:
        execution.data && active(execution.data.status) ? execution.data.currentStepId : null,
    }),
    [log, transitions, execution.data, templates.data],
  );
  if (workflow.isPending || execution.isPending) return <Loading label="Loading the execution" />;
  if (workflow.isError) return <ErrorState error={workflow.error} />;
  if (execution.isError) return <ErrorState error={execution.error} />;
  const w = workflow.data;
  const x = execution.data;
  const steps = new Map(w.steps.map((s) => [s.id, s]));
  const current = x.currentStepId ? steps.get(x.currentStepId) : undefined;
  const currentEntry = [...(log ?? [])].reverse().find((e) => e.stepId === x.currentStepId);
  const waiting = x.status === 'WAITING' ? waitingFor(current, currentEntry) : undefined;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link
          to="/workflows/$workflowId/executions"
          params={{ workflowId }}
          className="text-accent underline"
        >
          ← Executions of {w.name}
        </Link>
      </p>
      <PageHeader
        title={x.contactEmail}
        description={
          <span data-testid="execution-status">
            {x.status.toLowerCase()}
            {current ? ` at ${current.name || STEP_LABELS[current.type]}` : ''}
            {x.exitReason ? ` · ${x.exitReason}` : ''}
            {x.error ? ` · ${x.error}` : ''}
          </span>
        }
        actions={
          active(x.status) ? (
            <Button variant="danger" onClick={() => setCancelling(true)}>
              Cancel execution
            </Button>
          ) : null
        }
      />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <WorkflowCanvas
          label="Path of this execution"
          trigger={triggerLabel(w)}
          steps={w.steps}
          transitions={w.transitions}
          info={info}
          editable={false}
        />
        <aside className="flex min-w-0 flex-col gap-4">
          {waiting ? (
            <Card title="Waiting">
              <p className="text-sm" data-testid="execution-waiting">
                {waiting}
              </p>
            </Card>
          ) : null}
          <Card title="Context">
            <pre className="max-h-48 overflow-auto text-xs">
              {JSON.stringify(x.context, null, 2)}
            </pre>
            {x.triggerEvent ? (
              <p className="mt-2 text-xs text-muted">
                Started by “{x.triggerEvent.name}” {formatDate(x.triggerEvent.createdAt)}
              </p>
            ) : null}
          </Card>
          <p>
            <TemporalRunLink workflowId={x.temporalWorkflowId} />
          </p>
        </aside>
      </div>
      <div className="mt-6">
        <Table<LogEntry>
          caption="Steps taken"
          rows={log ?? []}
          rowKey={(e) => String(e.seq)}
          columns={[
            { header: '#', cell: (e) => e.seq },
            {
              header: 'Step',
              cell: (e) => {
                const s = steps.get(e.stepId);
                return s ? s.name || STEP_LABELS[s.type] : STEP_LABELS[e.type];
              },
            },
            { header: 'Outcome', cell: (e) => e.status.toLowerCase() },
            { header: 'Started', cell: (e) => formatDate(e.startedAt), wide: true },
            { header: 'Finished', cell: (e) => formatDate(e.finishedAt), wide: true },
            {
              header: 'Result',
              cell: (e) => (
                <span className="line-clamp-2 font-mono text-xs">
                  {e.error ?? (e.result ? JSON.stringify(e.result) : '')}
                </span>
              ),
            },
          ]}
        />
      </div>
      <ConfirmDialog
        open={cancelling}
        onOpenChange={setCancelling}
        title="Cancel this execution?"
        description="No further step runs for this contact."
        confirmLabel="Cancel execution"
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
      />
    </>
  );
}
