import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { BodyOf, ResponseOf } from '../api/types';

export type Endpoint = ResponseOf<'/webhook-endpoints/{id}', 'get'>;
export type EndpointWithSecret = ResponseOf<'/webhook-endpoints', 'post', 201>;
export type Delivery = ResponseOf<'/webhook-endpoints/{id}/deliveries/{deliveryId}', 'get'>;
export type DeliveryStatus = Delivery['status'];
export type EndpointInput = BodyOf<'/webhook-endpoints', 'post'>;
export type EndpointPatch = BodyOf<'/webhook-endpoints/{id}', 'patch'>;

const endpointsKey = (projectId: string) => ['project', projectId, 'webhook-endpoints'];
const deliveriesKey = (projectId: string, endpointId: string) => [
  ...endpointsKey(projectId),
  endpointId,
  'deliveries',
];
const path = (id: string) => ({ params: { path: { id } } });

export const DELIVERIES_PAGE_SIZE = 25;

export function useEndpoints(projectId: string) {
  return useQuery({
    queryKey: endpointsKey(projectId),
    queryFn: () => unwrap(api.GET('/webhook-endpoints')),
  });
}

export function useEndpoint(projectId: string, endpointId: string) {
  return useQuery({
    queryKey: [...endpointsKey(projectId), endpointId],
    queryFn: () => unwrap(api.GET('/webhook-endpoints/{id}', path(endpointId))),
  });
}

/**
 * The endpoint's delivery log under a status filter ('' for all), page by page; looked at again
 * every 2 s while a delivery shown is still PENDING (a test event, a retry on its way).
 */
export function useDeliveries(projectId: string, endpointId: string, status: DeliveryStatus | '') {
  return useInfiniteQuery({
    queryKey: [...deliveriesKey(projectId, endpointId), status],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/webhook-endpoints/{id}/deliveries', {
          params: {
            path: { id: endpointId },
            query: { limit: DELIVERIES_PAGE_SIZE, cursor: pageParam, status: status || undefined },
          },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.data.some((d) => d.status === 'PENDING'))
        ? 2000
        : false,
  });
}

/** A webhook mutation that refreshes the endpoints and their logs when it settles. */
function useRefreshing<A, R>(projectId: string, run: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: endpointsKey(projectId) }),
  });
}

export const useCreateEndpoint = (projectId: string) =>
  useRefreshing(projectId, (body: EndpointInput) =>
    unwrap(api.POST('/webhook-endpoints', { body })),
  );

export const useUpdateEndpoint = (projectId: string) =>
  useRefreshing(projectId, ({ id, patch }: { id: string; patch: EndpointPatch }) =>
    unwrap(api.PATCH('/webhook-endpoints/{id}', { ...path(id), body: patch })),
  );

export const useDeleteEndpoint = (projectId: string) =>
  useRefreshing(projectId, (id: string) => unwrap(api.DELETE('/webhook-endpoints/{id}', path(id))));

export const useRotateSecret = (projectId: string) =>
  useRefreshing(projectId, ({ id, overlapSeconds }: { id: string; overlapSeconds: number }) =>
    unwrap(
      api.POST('/webhook-endpoints/{id}/rotate-secret', { ...path(id), body: { overlapSeconds } }),
    ),
  );

export const useSendTest = (projectId: string) =>
  useRefreshing(projectId, (id: string) =>
    unwrap(api.POST('/webhook-endpoints/{id}/test', path(id))),
  );

export const useRetryDelivery = (projectId: string) =>
  useRefreshing(projectId, ({ id, deliveryId }: { id: string; deliveryId: string }) =>
    unwrap(
      api.POST('/webhook-endpoints/{id}/deliveries/{deliveryId}/retry', {
        params: { path: { id, deliveryId } },
      }),
    ),
  );

export const useRetryFailed = (projectId: string) =>
  useRefreshing(projectId, ({ id, since }: { id: string; since: string }) =>
    unwrap(api.POST('/webhook-endpoints/{id}/deliveries/retry', { ...path(id), body: { since } })),
  );
