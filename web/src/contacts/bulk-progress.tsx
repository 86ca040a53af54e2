import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { ErrorState } from '../components/states';
import { useToast } from '../components/toast';
import { formatNumber } from '../lib/format';
import type { BulkAction, StartedBulkJob } from './bulk-actions';
import { ProgressBar } from '../components/progress-bar';
import { TemporalRunLink } from '../components/temporal-link';

type BulkJob = ResponseOf<'/contacts/bulk/{jobId}', 'get'>;

const FINISHED: readonly BulkJob['status'][] = ['COMPLETED', 'FAILED', 'CANCELLED'];

const VERBS: Record<BulkAction, { doing: string; done: string }> = {
  subscribe: { doing: 'Subscribing', done: 'Subscribed' },
  unsubscribe: { doing: 'Unsubscribing', done: 'Unsubscribed' },
  delete: { doing: 'Deleting', done: 'Deleted' },
};

const contactsWord = (n: number) => `${formatNumber(n)} contact${n === 1 ? '' : 's'}`;

/** What a finished job did, in one sentence (also the toast's). */
export function bulkOutcome(action: BulkAction, job: BulkJob): string {
  if (job.status !== 'COMPLETED') {
    const reason = job.result.errors[0]?.message;
    return `The bulk job ${job.status === 'FAILED' ? 'failed' : 'was cancelled'}${reason ? `: ${reason}` : '.'}`;
  }
  const changed = action === 'delete' ? (job.result.deleted ?? 0) : job.result.updated;
  const unchanged = job.result.skipped;
  const rest =
    unchanged === 0
      ? ''
      : action === 'delete'
        ? ` (${formatNumber(unchanged)} already gone)`
        : ` (${formatNumber(unchanged)} already ${action === 'subscribe' ? 'subscribed' : 'unsubscribed'} or gone)`;
  return `${VERBS[action].done} ${contactsWord(changed)}${rest}.`;
}

/**
 * Polls a bulk job until it is finished, then refreshes the contact lists, says what happened in
 * a toast and calls `onFinished` once. Stays on screen (with its Temporal link) until dismissed.
 */
export function BulkProgress({
  started,
  onFinished,
  onDismiss,
}: {
  started: StartedBulkJob;
  onFinished: (job: BulkJob) => void;
  onDismiss: () => void;
}) {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const toast = useToast();
  const job = useQuery({
    queryKey: ['project', projectId, 'bulk-job', started.jobId],
    queryFn: () =>
      unwrap(api.GET('/contacts/bulk/{jobId}', { params: { path: { jobId: started.jobId } } })),
    refetchInterval: (q) => (q.state.data && FINISHED.includes(q.state.data.status) ? false : 500),
  });
  const data = job.data;
  const finished = data !== undefined && FINISHED.includes(data.status);
  const reported = useRef<string>(undefined);
  useEffect(() => {
    if (!data || !finished || reported.current === data.id) return;
    reported.current = data.id;
    void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[2] === 'contacts' });
    toast(bulkOutcome(started.action, data), data.status === 'COMPLETED' ? 'ok' : 'error');
    onFinished(data);
  }, [data, finished, queryClient, toast, started.action, onFinished]);

  const verbs = VERBS[started.action];
  const total = data?.progress.total ?? started.count;
  const processed = data?.progress.processed ?? 0;
  return (
    <section
      aria-label="Bulk job"
      className="mb-3 flex flex-col gap-2 rounded-lg border border-line bg-panel px-4 py-3 text-sm"
    >
      {job.isError ? <ErrorState error={job.error} /> : null}
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-medium">
          {finished
            ? bulkOutcome(started.action, data)
            : `${verbs.doing} ${contactsWord(started.count)}…`}
        </p>
        <span role="status" aria-live="polite" data-testid="bulk-count" className="text-muted">
          {formatNumber(processed)} of {formatNumber(total)}
          {finished ? ' · done' : ''}
        </span>
      </div>
      <ProgressBar
        label="Bulk job progress"
        max={Math.max(total, 1)}
        value={data?.status === 'COMPLETED' ? Math.max(total, 1) : processed}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        {data ? <TemporalRunLink workflowId={data.workflowId} /> : <span />}
        {finished || job.isError ? (
          <Button variant="ghost" className="min-h-7 px-2 py-0.5" onClick={onDismiss}>
            Dismiss
          </Button>
        ) : null}
      </div>
    </section>
  );
}
