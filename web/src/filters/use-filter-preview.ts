import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { useDebounced } from '../lib/use-debounced';
import { errorsByNode, NO_ERRORS, type Filter } from './filter-model';

/**
 * What the filter being edited matches now (POST /segments/preview, debounced): the count, a
 * sample, and the API's field errors placed at the conditions they name.
 */
export function useFilterPreview(filter: Filter, { sampleSize = 5, enabled = true } = {}) {
  const projectId = useProjectId();
  const settled = useDebounced(JSON.stringify(filter), 300);
  const preview = useQuery({
    queryKey: ['project', projectId, 'segment-preview', settled, sampleSize],
    queryFn: () =>
      unwrap(
        api.POST('/segments/preview', {
          body: { filters: JSON.parse(settled) as Filter, sampleSize },
        }),
      ),
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 5_000,
  });
  const errors =
    preview.error instanceof ApiError
      ? errorsByNode(preview.error.fieldErrors, 'filters')
      : NO_ERRORS;
  return { preview, errors, settling: settled !== JSON.stringify(filter) || preview.isFetching };
}
