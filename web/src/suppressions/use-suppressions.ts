import {
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import type { SuppressionReason } from './suppression-labels';

type SuppressionPage = ResponseOf<'/suppressions', 'get'>;

export const SUPPRESSIONS_PAGE_SIZE = 50;
const suppressionsKey = (projectId: string) => ['project', projectId, 'suppressions'];

/** The suppression list under a reason ('' for all), page by page on the API's cursor. */
export function useSuppressions(projectId: string, reason: SuppressionReason | '') {
  return useInfiniteQuery({
    queryKey: [...suppressionsKey(projectId), reason],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/suppressions', {
          params: {
            query: {
              limit: SUPPRESSIONS_PAGE_SIZE,
              cursor: pageParam,
              reason: reason || undefined,
            },
          },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
  });
}

/**
 * Lifts a suppression (ADMIN): the row leaves every loaded list at once (and the first page's
 * total drops), then the lists are fetched again in the background.
 */
export function useLiftSuppression(projectId: string) {
  const queryClient = useQueryClient();
  const key = suppressionsKey(projectId);
  const drop = (email: string) =>
    queryClient.setQueriesData<InfiniteData<SuppressionPage>>({ queryKey: key }, (data) => {
      if (!data?.pages.some((p) => p.data.some((s) => s.email === email))) return data;
      return {
        ...data,
        pages: data.pages.map((page, i) => ({
          ...page,
          data: page.data.filter((s) => s.email !== email),
          total: i === 0 ? Math.max(0, page.total - 1) : page.total,
        })),
      };
    });
  return useMutation({
    mutationFn: (email: string) =>
      unwrap(api.DELETE('/suppressions/{email}', { params: { path: { email } } })),
    onSuccess: (lifted) => {
      drop(lifted.email);
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
