import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { ReportOutcome } from './report-labels';

export const REPORTS_PAGE_SIZE = 50;
const reportsKey = (projectId: string) => ['project', projectId, 'delivery-reports'];

/** The reports of one outcome ('' for all), newest first, page by page on the API's cursor. */
export function useDeliveryReports(projectId: string, outcome: ReportOutcome | '') {
  return useInfiniteQuery({
    queryKey: [...reportsKey(projectId), 'list', outcome],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/delivery-reports', {
          params: {
            query: { limit: REPORTS_PAGE_SIZE, cursor: pageParam, outcome: outcome || undefined },
          },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
  });
}

export function useDeliveryReport(projectId: string, reportId: string) {
  return useQuery({
    queryKey: [...reportsKey(projectId), reportId],
    queryFn: () =>
      unwrap(api.GET('/delivery-reports/{id}', { params: { path: { id: reportId } } })),
  });
}

/** The message the report arrived as, as text (a report is mail: 7-bit text in practice). */
export function useReportMessage(projectId: string, reportId: string) {
  return useQuery({
    queryKey: [...reportsKey(projectId), reportId, 'raw'],
    queryFn: () =>
      unwrap(
        api.GET('/delivery-reports/{id}/raw', {
          params: { path: { id: reportId } },
          parseAs: 'text',
        }),
      ) as Promise<string>,
  });
}
