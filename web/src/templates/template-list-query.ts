import { api, unwrap } from '../api/client';

/** The project's templates (first 100) as pickers list them: one cached request for all. */
export const templateListQuery = (projectId: string) => ({
  queryKey: ['project', projectId, 'templates', 'picker'],
  queryFn: () => unwrap(api.GET('/templates', { params: { query: { limit: 100 } } })),
});
