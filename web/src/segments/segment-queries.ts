import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { useProjectId } from '../api/use-project';

export type Segment = ResponseOf<'/segments/{id}', 'get'>;

export const segmentsKey = (projectId: string) => ['project', projectId, 'segments'];
export const segmentKey = (projectId: string, id: string) => ['project', projectId, 'segments', id];

export function useSegment(segmentId: string) {
  const projectId = useProjectId();
  return useQuery({
    queryKey: segmentKey(projectId, segmentId),
    queryFn: () => unwrap(api.GET('/segments/{id}', { params: { path: { id: segmentId } } })),
  });
}

/** Refreshes everything under the project's segments (the list, each segment, its members). */
export function useRefreshSegments() {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: segmentsKey(projectId) });
}
