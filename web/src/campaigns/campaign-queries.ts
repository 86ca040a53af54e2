import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { useProjectId } from '../api/use-project';

export type Campaign = ResponseOf<'/campaigns/{id}', 'get'>['data'];
export type CampaignStats = ResponseOf<'/campaigns/{id}/stats', 'get'>['data'];

export const campaignsKey = (projectId: string) => ['project', projectId, 'campaigns'];
export const campaignKey = (projectId: string, id: string) => [...campaignsKey(projectId), id];

/** Moving on its own (a send in progress, a time to wait for): worth polling. */
export const isLive = (status: Campaign['status']) =>
  status === 'SCHEDULED' || status === 'SENDING';

export function useCampaign(campaignId: string) {
  const projectId = useProjectId();
  return useQuery({
    queryKey: campaignKey(projectId, campaignId),
    queryFn: async () =>
      (await unwrap(api.GET('/campaigns/{id}', { params: { path: { id: campaignId } } }))).data,
    refetchInterval: (query) =>
      query.state.data && isLive(query.state.data.status) ? 1000 : false,
  });
}

/** The project's verified sending domains: the only ones a campaign's From may use. */
export function useVerifiedDomains() {
  const projectId = useProjectId();
  return useQuery({
    queryKey: ['project', projectId, 'domains'],
    queryFn: () =>
      unwrap(api.GET('/domains/project/{projectId}', { params: { path: { projectId } } })),
    select: (domains) => domains.filter((d) => d.status === 'VERIFIED').map((d) => d.domain),
  });
}
