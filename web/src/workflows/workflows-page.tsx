import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { Dialog } from '../components/dialog';
import { EmptyState } from '../components/empty-state';
import { Input } from '../components/input';
import { PageHeader } from '../components/page-header';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { formatDate } from '../lib/format';
import { workflowsKey } from './workflow-queries';

type Row = ResponseOf<'/workflows', 'get'>['workflows'][number];

export function WorkflowsPage() {
  const projectId = useProjectId();
  const [creating, setCreating] = useState(false);
  const workflows = useQuery({
    queryKey: [...workflowsKey(projectId), 'list'],
    queryFn: () => unwrap(api.GET('/workflows', { params: { query: { pageSize: 100 } } })),
  });
  return (
    <>
      <PageHeader
        title="Workflows"
        description="Steps that run for a contact when an event is tracked or they join a segment."
        actions={<Button onClick={() => setCreating(true)}>New workflow</Button>}
      />
      {workflows.isPending ? (
        <Loading label="Loading workflows" />
      ) : workflows.isError ? (
        <ErrorState error={workflows.error} />
      ) : workflows.data.workflows.length === 0 ? (
        <EmptyState
          title="No workflows yet"
          action={<Button onClick={() => setCreating(true)}>Draw a workflow</Button>}
        >
          Welcome series, reminders, follow-ups: each run is a durable Temporal workflow.
        </EmptyState>
      ) : (
        <Table<Row>
          caption="Workflows"
          rows={workflows.data.workflows}
          rowKey={(w) => w.id}
          columns={[
            {
              header: 'Name',
              cell: (w) => (
                <Link
                  to="/workflows/$workflowId"
                  params={{ workflowId: w.id }}
                  className="font-medium text-accent hover:underline"
                >
                  {w.name}
                </Link>
              ),
            },
            {
              header: 'Trigger',
              cell: (w) =>
                w.triggerType === 'EVENT'
                  ? `Event ${w.triggerConfig.eventName ?? ''}`
                  : w.triggerType === 'SEGMENT_ENTRY'
                    ? 'Segment entry'
                    : 'Manual',
            },
            { header: 'Enabled', cell: (w) => (w.enabled ? 'Yes' : 'No') },
            { header: 'Updated', cell: (w) => formatDate(w.updatedAt), wide: true },
          ]}
        />
      )}
      <NewWorkflowDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}

function NewWorkflowDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [event, setEvent] = useState('');
  const create = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/workflows', { body: { name, triggerEvent: event, allowReentry: false } })),
    onSuccess: async (created) => {
      onOpenChange(false);
      await queryClient.invalidateQueries({ queryKey: workflowsKey(projectId) });
      await navigate({ to: '/workflows/$workflowId', params: { workflowId: created.id } });
    },
  });
  const errorOf = (field: string) =>
    create.error && 'fieldErrors' in create.error
      ? (create.error as { fieldErrors: { field?: string; message?: string }[] }).fieldErrors.find(
          (f) => f.field === field,
        )?.message
      : undefined;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New workflow"
      description="You draw its steps on the canvas next; it starts disabled."
    >
      <form
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Input
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errorOf('name')}
        />
        <Input
          label="Starts when this event is tracked"
          value={event}
          onChange={(e) => setEvent(e.target.value)}
          placeholder="signup"
          error={errorOf('triggerEvent')}
        />
        {create.isError && !errorOf('name') && !errorOf('triggerEvent') ? (
          <ErrorState error={create.error} />
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" busy={create.isPending}>
            Create and draw
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
