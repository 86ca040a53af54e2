import { Button } from '../components/button';
import { Table } from '../components/table';
import { formatDate } from '../lib/format';
import { DeliveryStatusBadge } from './delivery-status-badge';
import type { Delivery } from './use-webhooks';

const attemptsText = (d: Delivery): string => `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`;

/** What the endpoint answered last: its status code and latency, or the error. */
function AnswerCell({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts === 0) return <span className="text-muted">Not tried yet</span>;
  return (
    <div className="flex flex-col gap-0.5">
      <span className="whitespace-nowrap">
        {delivery.responseStatus !== null ? (
          <span className="font-mono">{delivery.responseStatus}</span>
        ) : (
          <span className="text-danger">No answer</span>
        )}
        {delivery.latencyMs !== null ? (
          <span className="text-muted"> · {delivery.latencyMs} ms</span>
        ) : null}
      </span>
      {delivery.error && delivery.responseStatus === null ? (
        <span className="text-xs break-all text-danger">{delivery.error}</span>
      ) : null}
    </div>
  );
}

/** The body sent and the first 1 KB of the last answer, folded away until asked for. */
function DetailsCell({ delivery }: { delivery: Delivery }) {
  return (
    <details className="max-w-md text-xs">
      <summary className="cursor-pointer text-accent">
        Details<span className="sr-only"> of {delivery.id}</span>
      </summary>
      <dl className="mt-2 flex flex-col gap-2">
        <div>
          <dt className="font-medium">webhook-id</dt>
          <dd className="font-mono break-all">{delivery.id}</dd>
        </div>
        <div>
          <dt className="font-medium">Body sent</dt>
          <dd>
            <pre
              tabIndex={0}
              aria-label="Body sent"
              className="max-h-48 overflow-auto rounded bg-surface p-2 whitespace-pre-wrap"
            >
              {JSON.stringify(delivery.payload, null, 2)}
            </pre>
          </dd>
        </div>
        <div>
          <dt className="font-medium">Last answer (first 1 KB)</dt>
          <dd>
            <pre
              tabIndex={0}
              aria-label="Last answer"
              className="max-h-32 overflow-auto rounded bg-surface p-2 whitespace-pre-wrap"
            >
              {delivery.responseBody || '(empty)'}
            </pre>
          </dd>
        </div>
        {delivery.nextAttemptAt ? (
          <div>
            <dt className="font-medium">Next attempt</dt>
            <dd>{formatDate(delivery.nextAttemptAt)}</dd>
          </div>
        ) : null}
      </dl>
    </details>
  );
}

/** An endpoint's delivery log; `onRetry` sends one again (not while it is pending). */
export function DeliveriesTable({
  rows,
  onRetry,
  retrying,
}: {
  rows: Delivery[];
  onRetry: (delivery: Delivery) => void;
  retrying: string | undefined;
}) {
  return (
    <Table<Delivery>
      caption="Deliveries"
      rows={rows}
      rowKey={(d) => d.id}
      columns={[
        {
          header: 'Event',
          cell: (d) => (
            <div className="flex flex-col items-start gap-1">
              <span className="font-mono text-xs">{d.type}</span>
              <time dateTime={d.createdAt} className="text-xs whitespace-nowrap text-muted">
                {formatDate(d.createdAt)}
              </time>
            </div>
          ),
        },
        {
          header: 'Status',
          cell: (d) => (
            <div className="flex flex-col items-start gap-1">
              <DeliveryStatusBadge status={d.status} />
              <span className="text-xs whitespace-nowrap text-muted">{attemptsText(d)}</span>
              {d.attempts > 0 ? (
                <span className="text-xs whitespace-nowrap text-muted md:hidden">
                  {d.responseStatus !== null ? `Answered ${d.responseStatus}` : 'No answer'}
                </span>
              ) : null}
            </div>
          ),
        },
        { header: 'Answer', cell: (d) => <AnswerCell delivery={d} />, wide: true },
        { header: 'Details', cell: (d) => <DetailsCell delivery={d} />, wide: true },
        {
          header: 'Action',
          cell: (d) =>
            d.status === 'PENDING' ? null : (
              <Button
                variant="secondary"
                aria-label={`Retry ${d.type} delivery ${d.id}`}
                busy={retrying === d.id}
                onClick={() => onRetry(d)}
              >
                Retry
              </Button>
            ),
        },
      ]}
    />
  );
}
