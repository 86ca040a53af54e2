import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { ActivityFilters } from './activity-search';

export const ACTIVITY_PAGE_SIZE = 25;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The contact filter names a contact by id or by email; the feed filters by id, so an email is
 * looked up first. `missing` when no contact has that email.
 */
function useContactId(projectId: string, contact: string) {
  const byEmail = contact !== '' && !UUID.test(contact);
  const lookup = useQuery({
    queryKey: ['project', projectId, 'contact-lookup', contact],
    queryFn: () => unwrap(api.POST('/contacts/lookup', { body: { emails: [contact] } })),
    enabled: byEmail,
  });
  if (!byEmail) return { contactId: contact || undefined, ready: true, missing: false };
  const found = lookup.data?.found[0]?.id;
  return {
    contactId: found,
    ready: lookup.isSuccess,
    missing: lookup.isSuccess && !found,
    error: lookup.error,
  };
}

/** The feed under the filters, page by page on the API's cursor. */
export function useActivityFeed(projectId: string, filters: ActivityFilters) {
  const contact = useContactId(projectId, filters.contact);
  const feed = useInfiniteQuery({
    queryKey: ['project', projectId, 'activity', filters.type, contact.contactId, filters.campaign],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/activity', {
          params: {
            query: {
              limit: ACTIVITY_PAGE_SIZE,
              cursor: pageParam,
              type: filters.type || undefined,
              contactId: contact.contactId,
              campaignId: filters.campaign || undefined,
            },
          },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
    enabled: contact.ready && !contact.missing,
  });
  return { feed, contactMissing: contact.missing, contactError: contact.error };
}
