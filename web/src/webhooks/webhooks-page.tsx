import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { isAdmin, useProject, useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { Dialog } from '../components/dialog';
import { EmptyState } from '../components/empty-state';
import { PageHeader } from '../components/page-header';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { formatDate } from '../lib/format';
import { EndpointStateBadge } from './delivery-status-badge';
import { EndpointForm } from './endpoint-form';
import { SecretDialog } from './secret-dialog';
import { useCreateEndpoint, useEndpoints, type Endpoint } from './use-webhooks';

const MAX_ENDPOINTS = 20;

export function EventTypeList({ types }: { types: string[] }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Events">
      {types.map((type) => (
        <li key={type} className="rounded bg-surface px-1.5 py-0.5 font-mono text-xs">
          {type}
        </li>
      ))}
    </ul>
  );
}

function EndpointCell({ endpoint }: { endpoint: Endpoint }) {
  return (
    <div className="flex min-w-0 flex-col items-start gap-1">
      <Link
        to="/webhooks/$endpointId"
        params={{ endpointId: endpoint.id }}
        className="font-medium break-all text-accent underline-offset-2 hover:underline"
      >
        {endpoint.url}
      </Link>
      {endpoint.description ? (
        <span className="text-xs text-muted">{endpoint.description}</span>
      ) : null}
      <div className="md:hidden">
        <EndpointStateBadge endpoint={endpoint} />
      </div>
    </div>
  );
}

/** A project's webhook endpoints (admins only), and adding one: its secret shows once. */
export function WebhooksPage() {
  const projectId = useProjectId();
  const { project } = useProject();
  const admin = isAdmin(project?.role);
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string>();
  const list = useEndpoints(projectId);
  const create = useCreateEndpoint(projectId);
  const endpoints = list.data?.data ?? [];
  const full = endpoints.length >= MAX_ENDPOINTS;

  if (!admin) {
    return (
      <>
        <PageHeader title="Webhooks" />
        <EmptyState title="Only owners and admins manage webhooks">
          Webhook endpoints receive the project&apos;s events with a signing secret; ask an owner or
          admin of this project.
        </EmptyState>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Your servers hear of events as they happen: each request is signed (Standard Webhooks) and retried for 3 days until it is answered with a 2xx."
        actions={
          <Button onClick={() => setAdding(true)} disabled={full}>
            Add endpoint
          </Button>
        }
      />
      {full ? (
        <p className="mb-3 text-sm text-muted">
          A project has at most {MAX_ENDPOINTS} endpoints; remove one to add another.
        </p>
      ) : null}
      {list.isPending ? (
        <Loading label="Loading endpoints" />
      ) : list.isError ? (
        <ErrorState error={list.error} />
      ) : endpoints.length === 0 ? (
        <EmptyState
          title="No webhook endpoints yet"
          action={<Button onClick={() => setAdding(true)}>Add endpoint</Button>}
        >
          Add a URL of yours and choose the events it should receive: sent, delivered, opened,
          clicked, bounced and complained emails, subscriptions, segment entries and exits, or your
          own tracked events.
        </EmptyState>
      ) : (
        <Table<Endpoint>
          caption="Webhook endpoints"
          rows={endpoints}
          rowKey={(e) => e.id}
          columns={[
            { header: 'Endpoint', cell: (e) => <EndpointCell endpoint={e} /> },
            { header: 'Events', cell: (e) => <EventTypeList types={e.eventTypes} />, wide: true },
            { header: 'State', cell: (e) => <EndpointStateBadge endpoint={e} />, wide: true },
            {
              header: 'Created',
              cell: (e) => (
                <time dateTime={e.createdAt} className="whitespace-nowrap">
                  {formatDate(e.createdAt)}
                </time>
              ),
              wide: true,
            },
          ]}
        />
      )}
      <Dialog
        open={adding}
        onOpenChange={setAdding}
        title="Add a webhook endpoint"
        description="Events are sent as JSON POSTs of {type, timestamp, data}."
      >
        <EndpointForm
          submitLabel="Add endpoint"
          onCancel={() => setAdding(false)}
          onSubmit={async (input) => {
            const created = await create.mutateAsync(input);
            setAdding(false);
            setSecret(created.secret);
          }}
        />
      </Dialog>
      <SecretDialog secret={secret} title="Endpoint added" onClose={() => setSecret(undefined)} />
    </>
  );
}
