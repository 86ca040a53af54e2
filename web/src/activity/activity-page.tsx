import { useCallback } from 'react';
import { useProjectId } from '../api/use-project';
import { EmptyState } from '../components/empty-state';
import { PageHeader } from '../components/page-header';
import { ErrorState, Loading } from '../components/states';
import { formatNumber } from '../lib/format';
import { ActivityFeed } from './activity-feed';
import { ActivityFilterBar } from './activity-filters';
import { useActivityFilters } from './activity-search';
import { useActivityFeed } from './use-activity-feed';

export function ActivityPage() {
  const projectId = useProjectId();
  const { filters, setFilters } = useActivityFilters();
  const { feed, contactMissing, contactError } = useActivityFeed(projectId, filters);
  const filtered = Boolean(filters.type || filters.contact || filters.campaign);
  const items = feed.data?.pages.flatMap((p) => p.data) ?? [];
  const total = feed.data?.pages[0]?.total;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feed;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <>
      <PageHeader
        title="Activity"
        description={
          total === undefined || (total === 0 && !filtered)
            ? 'Sends, deliveries, opens, clicks, bounces, complaints and inbound mail, newest first.'
            : `${formatNumber(total)} ${filtered ? 'matching' : 'in all'}, newest first`
        }
      />
      {/* Remounted when the URL changes the contact, so its field shows what is applied. */}
      <ActivityFilterBar
        key={filters.contact}
        projectId={projectId}
        filters={filters}
        onChange={setFilters}
      />
      {contactError ? (
        <ErrorState error={contactError} />
      ) : contactMissing ? (
        <EmptyState title="No such contact">
          No contact has the address {filters.contact}. Check it, or clear the filter.
        </EmptyState>
      ) : feed.isPending ? (
        <Loading label="Loading activity" />
      ) : feed.isError ? (
        <ErrorState error={feed.error} />
      ) : items.length === 0 ? (
        <EmptyState title={filtered ? 'Nothing matches' : 'No activity yet'}>
          {filtered ? (
            'Try another type, contact or campaign.'
          ) : (
            <>
              Send an email with <code className="whitespace-nowrap">POST /v1/send</code> or a
              campaign: every send, open and click shows here.
            </>
          )}
        </EmptyState>
      ) : (
        <ActivityFeed
          items={items}
          total={total}
          hasMore={hasNextPage}
          loadingMore={isFetchingNextPage}
          loadMore={loadMore}
        />
      )}
    </>
  );
}
