import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import type { BodyOf } from '../api/types';
import { useProjectId } from '../api/use-project';
import { errorsByNode, NO_ERRORS } from '../filters/filter-model';
import { useDebounced } from '../lib/use-debounced';

export type AudienceInput = BodyOf<'/campaigns/audience', 'post'>;

/**
 * The audience being composed, measured as a send would take it (POST /campaigns/audience,
 * debounced): who it matches, who it would reach, and the filter's errors at their conditions.
 */
export function useAudienceCount(input: AudienceInput | undefined) {
  const projectId = useProjectId();
  const settled = useDebounced(input ? JSON.stringify(input) : '', 300);
  const measured = useQuery({
    queryKey: ['project', projectId, 'campaign-audience', settled],
    enabled: settled !== '',
    queryFn: async () =>
      (
        await unwrap(
          api.POST('/campaigns/audience', { body: JSON.parse(settled) as AudienceInput }),
        )
      ).data,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const errors =
    measured.error instanceof ApiError
      ? errorsByNode(measured.error.fieldErrors, 'audienceFilter')
      : NO_ERRORS;
  return { measured, errors };
}

export function AudienceCount({ state }: { state: ReturnType<typeof useAudienceCount> }) {
  const { measured } = state;
  const data = measured.isError ? undefined : measured.data;
  return (
    <div aria-live="polite" className="rounded-md bg-surface p-3 text-sm">
      {measured.isError ? (
        <p className="text-danger">{measured.error.message}</p>
      ) : data ? (
        <>
          <p>
            <span data-testid="reachable-count" className="text-2xl font-semibold tabular-nums">
              {data.reachable.toLocaleString()}
            </span>{' '}
            {data.reachable === 1 ? 'contact' : 'contacts'} would receive it now
          </p>
          <p className="text-muted">
            {data.matching.toLocaleString()} match the audience; {data.skipped.toLocaleString()}{' '}
            unsubscribed or suppressed {data.skipped === 1 ? 'is' : 'are'} skipped.
          </p>
        </>
      ) : (
        <p className="text-muted">Counting the audience…</p>
      )}
    </div>
  );
}
