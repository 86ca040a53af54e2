import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from './client';

/** The logged-in user (GET /users/@me); a 401 means the session is missing or over. */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: () => unwrap(api.GET('/users/@me')),
  staleTime: 60_000,
});

/** The user's projects, each with the user's role in it. */
export const projectsQuery = queryOptions({
  queryKey: ['projects'],
  queryFn: () => unwrap(api.GET('/users/@me/projects')),
  staleTime: 60_000,
});
