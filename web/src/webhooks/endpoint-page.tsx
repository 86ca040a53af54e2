import { useNavigate, useParams } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { isAdmin, useProject, useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { Dialog } from '../components/dialog';
import { EmptyState } from '../components/empty-state';
import { PageHeader } from '../components/page-header';
import { Select } from '../components/select';
import { ErrorState, Loading } from '../components/states';
import { useToast } from '../components/toast';
import { formatDate } from '../lib/format';
import { DeliveriesLog } from './deliveries-log';
import { EndpointStateBadge } from './delivery-status-badge';
import { EndpointForm } from './endpoint-form';
import { SecretDialog } from './secret-dialog';
import {
  useDeleteEndpoint,
  useEndpoint,
  useRotateSecret,
  useSendTest,
  useUpdateEndpoint,
  type Endpoint,
} from './use-webhooks';
import { EventTypeList } from './webhooks-page';

const OVERLAPS = [
  { value: '0', label: 'Stop the old secret now' },
  { value: '3600', label: 'Keep the old secret 1 hour' },
  { value: '86400', label: 'Keep the old secret 1 day' },
  { value: '604800', label: 'Keep the old secret 7 days' },
];

function RotateForm({
  busy,
  onRotate,
  onCancel,
}: {
  busy: boolean;
  onRotate: (overlapSeconds: number) => void;
  onCancel: () => void;
}) {
  const [overlap, setOverlap] = useState('86400');
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        onRotate(Number(overlap));
      }}
    >
      <Select
        label="Overlap"
        value={overlap}
        onChange={(e) => setOverlap(e.target.value)}
        options={OVERLAPS}
      />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" busy={busy}>
          Rotate secret
        </Button>
      </div>
    </form>
  );
}

function Facts({ endpoint }: { endpoint: Endpoint }) {
  const rows: [string, ReactNode][] = [
    ['State', <EndpointStateBadge key="s" endpoint={endpoint} />],
    ['Events', <EventTypeList key="e" types={endpoint.eventTypes} />],
    ['Failing since', endpoint.failingSince ? formatDate(endpoint.failingSince) : 'Not failing'],
    ['Secret rotated', endpoint.secretRotatedAt ? formatDate(endpoint.secretRotatedAt) : 'Never'],
  ];
  if (endpoint.previousSecretExpiresAt) {
    rows.push(['Old secret signs until', formatDate(endpoint.previousSecretExpiresAt)]);
  }
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-muted">{term}</dt>
          <dd className="min-w-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One endpoint: its facts, test event, edit, rotation, enable/disable, delete and delivery log. */
export function EndpointPage() {
  const { endpointId } = useParams({ from: '/app/webhooks/$endpointId' });
  const projectId = useProjectId();
  const { project } = useProject();
  const navigate = useNavigate();
  const toast = useToast();
  const endpoint = useEndpoint(projectId, endpointId);
  const update = useUpdateEndpoint(projectId);
  const remove = useDeleteEndpoint(projectId);
  const rotate = useRotateSecret(projectId);
  const sendTest = useSendTest(projectId);
  const [editing, setEditing] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [secret, setSecret] = useState<string>();

  if (!isAdmin(project?.role)) {
    return (
      <EmptyState title="Only owners and admins manage webhooks">
        Ask an owner or admin of this project.
      </EmptyState>
    );
  }
  if (endpoint.isPending) return <Loading label="Loading endpoint" />;
  if (endpoint.isError) return <ErrorState error={endpoint.error} />;
  const e = endpoint.data;
  const fail = (error: Error) => toast(error.message, 'error');

  return (
    <>
      <PageHeader
        title="Webhook endpoint"
        description={<span className="font-mono break-all">{e.url}</span>}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button
              busy={sendTest.isPending}
              disabled={!e.enabled}
              onClick={() =>
                sendTest.mutate(e.id, {
                  onSuccess: () => toast('Test event queued: it shows in the log below'),
                  onError: fail,
                })
              }
            >
              Send test event
            </Button>
            <Button variant="secondary" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button variant="secondary" onClick={() => setRotating(true)}>
              Rotate secret
            </Button>
            <Button
              variant="secondary"
              busy={update.isPending}
              onClick={() =>
                update.mutate(
                  { id: e.id, patch: { enabled: !e.enabled } },
                  {
                    onSuccess: (next) =>
                      toast(next.enabled ? 'Endpoint enabled' : 'Endpoint disabled'),
                    onError: fail,
                  },
                )
              }
            >
              {e.enabled ? 'Disable' : 'Enable'}
            </Button>
            <Button variant="danger" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          </div>
        }
      />
      <div className="flex flex-col gap-4">
        <Card title={e.description ?? 'About this endpoint'}>
          <Facts endpoint={e} />
          {!e.enabled && e.failingSince ? (
            <p className="mt-3 text-sm text-danger">
              Disabled after failing since {formatDate(e.failingSince)}. Fix the endpoint, enable
              it, then retry the failed deliveries.
            </p>
          ) : null}
        </Card>
        <DeliveriesLog projectId={projectId} endpoint={e} />
      </div>
      <Dialog open={editing} onOpenChange={setEditing} title="Edit endpoint">
        <EndpointForm
          initial={e}
          submitLabel="Save"
          onCancel={() => setEditing(false)}
          onSubmit={async (input) => {
            await update.mutateAsync({ id: e.id, patch: input });
            setEditing(false);
            toast('Endpoint saved');
          }}
        />
      </Dialog>
      <Dialog
        open={rotating}
        onOpenChange={setRotating}
        title="Rotate the signing secret?"
        description="A new secret signs every request from now on. During the overlap the old one signs too (both signatures are sent), so your server can switch without missing an event."
      >
        <RotateForm
          busy={rotate.isPending}
          onCancel={() => setRotating(false)}
          onRotate={(overlapSeconds) =>
            rotate.mutate(
              { id: e.id, overlapSeconds },
              {
                onSuccess: (rotated) => {
                  setRotating(false);
                  setSecret(rotated.secret);
                },
                onError: fail,
              },
            )
          }
        />
      </Dialog>
      <SecretDialog
        secret={secret}
        title="New signing secret"
        onClose={() => setSecret(undefined)}
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete this endpoint?"
        description="Its delivery log goes with it, and nothing still pending is sent."

        confirmLabel="Delete endpoint"
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(e.id, {
            onSuccess: () => {
              toast('Endpoint deleted');
              void navigate({ to: '/webhooks' });
            },
            onError: fail,
          })
        }
      />
    </>
  );
}
