import type { ResponseOf } from '../api/types';
import { formatNumber } from '../lib/format';
import { ProgressBar } from '../components/progress-bar';
import { TemporalRunLink } from '../components/temporal-link';

type Job = ResponseOf<'/contacts/import/{jobId}', 'get'>;

export function ImportProgress({ job }: { job: Job }) {
  const { processed, total } = job.progress;
  const done = job.status === 'COMPLETED';
  return (
    <div className="flex flex-col gap-2 text-sm">
      <div className="flex justify-between">
        <span>
          {done ? 'Import finished' : job.status === 'FAILED' ? 'Import failed' : 'Importing…'}
        </span>
        <span role="status" aria-live="polite" data-testid="import-count">
          {formatNumber(processed)}
          {total === null ? '' : ` of ${formatNumber(total)}`} rows
        </span>
      </div>
      <ProgressBar
        label="Import progress"
        max={total ?? 1}
        value={total === null ? (done ? 1 : 0) : processed}
      />
      {done ? (
        <p>
          {formatNumber(job.result.created)} created, {formatNumber(job.result.updated)} updated,{' '}
          {formatNumber(job.result.skipped)} skipped, {formatNumber(job.result.failed)} failed.
        </p>
      ) : null}
      {job.result.errors.length > 0 ? (
        <ul className="max-h-24 overflow-auto text-xs text-danger">
          {job.result.errors.slice(0, 20).map((e) => (
            <li key={e.row}>
              Row {e.row}: {e.message}
            </li>
          ))}
        </ul>
      ) : null}
      <TemporalRunLink workflowId={job.workflowId} />
    </div>
  );
}
