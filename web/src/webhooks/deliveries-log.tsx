import { useState } from 'react';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { EmptyState } from '../components/empty-state';
import { Input } from '../components/input';
import { Select } from '../components/select';
import { ErrorState, Loading } from '../components/states';
import { useToast } from '../components/toast';
import { formatNumber } from '../lib/format';
import { DeliveriesTable } from './deliveries-table';
import { STATUS_LABELS } from './delivery-status-badge';
import {
  useDeliveries,
  useRetryDelivery,
  useRetryFailed,
  type DeliveryStatus,
  type Endpoint,
} from './use-webhooks';

const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label })),
];
const isStatus = (value: string): value is DeliveryStatus => value in STATUS_LABELS;

/** The local time an hour ago, as a datetime-local input shows it. */
function anHourAgo(): string {
  const at = new Date(Date.now() - 3600_000);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** Sends every FAILED delivery since the time chosen again. */
function RetryFailedForm({ projectId, endpoint }: { projectId: string; endpoint: Endpoint }) {
  const toast = useToast();
  const [since, setSince] = useState(anHourAgo);
  const retryFailed = useRetryFailed(projectId);
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        retryFailed.mutate(
          { id: endpoint.id, since: new Date(since).toISOString() },
          {
            onSuccess: ({ retried }) =>
              toast(
                retried === 0
                  ? 'No failed delivery since then'
                  : `${formatNumber(retried)} failed ${retried === 1 ? 'delivery' : 'deliveries'} sent again`,
              ),
            onError: (error) => toast(error.message, 'error'),
          },
        );
      }}
    >
      <Input
        label="Failed since"
        type="datetime-local"
        value={since}
        required
        onChange={(e) => setSince(e.target.value)}
      />
      <Button
        type="submit"
        variant="secondary"
        busy={retryFailed.isPending}
        disabled={!endpoint.enabled}
      >
        Retry all failed
      </Button>
    </form>
  );
}

/** The endpoint's delivery log: filter, retry one, retry all failed since a time, load more. */
export function DeliveriesLog({ projectId, endpoint }: { projectId: string; endpoint: Endpoint }) {
  const toast = useToast();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const log = useDeliveries(projectId, endpoint.id, status);
  const retry = useRetryDelivery(projectId);
  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];
  const total = log.data?.pages[0]?.total;

  return (
    <Card title={`Deliveries${total === undefined ? '' : ` (${formatNumber(total)})`}`}>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <Select
          label="Status"
          value={status}
          onChange={(e) => setStatus(isStatus(e.target.value) ? e.target.value : '')}
          options={STATUS_OPTIONS}
        />
        <RetryFailedForm projectId={projectId} endpoint={endpoint} />
      </div>
      {log.isPending ? (
        <Loading label="Loading deliveries" />
      ) : log.isError ? (
        <ErrorState error={log.error} />
      ) : rows.length === 0 ? (
        <EmptyState title={status ? 'No delivery with this status' : 'No deliveries yet'}>
          {status
            ? 'Try another status.'
            : 'Each event this endpoint asked for shows here once it is queued. Send a test event to try the endpoint now.'}
        </EmptyState>
      ) : (
        <>
          <DeliveriesTable
            rows={rows}
            retrying={retry.isPending ? retry.variables?.deliveryId : undefined}
            onRetry={(delivery) =>
              retry.mutate(
                { id: endpoint.id, deliveryId: delivery.id },
                {
                  onSuccess: () => toast('Delivery sent again'),
                  onError: (error) => toast(error.message, 'error'),
                },
              )
            }
          />
          {log.hasNextPage ? (
            <div className="mt-4 flex justify-center">
              <Button
                variant="secondary"
                busy={log.isFetchingNextPage}
                onClick={() => void log.fetchNextPage()}
              >
                Load more
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Card>
  );
}
