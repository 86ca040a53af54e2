import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../components/button';
import { formatNumber } from '../lib/format';
import { ActivityRow } from './activity-row';
import type { ActivityItem } from './activity-types';

/**
 * The loaded items as a list that renders only the rows near the viewport (the page scrolls, so
 * the window is the scroller). A sentinel below it fetches the next page as it comes into view;
 * the "Load more" button does the same for whoever does not scroll.
 */
export function ActivityFeed({
  items,
  total,
  hasMore,
  loadingMore,
  loadMore,
}: {
  items: ActivityItem[];
  total: number | undefined;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}) {
  const listRef = useRef<HTMLOListElement | null>(null);
  const sentinelRef = useRef<HTMLDivElement | null>(null);
  // Where the list starts on the page; it moves when what is above it changes height.
  const [scrollMargin, setScrollMargin] = useState(0);
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const observer = new ResizeObserver(() =>
      setScrollMargin(list.getBoundingClientRect().top + window.scrollY),
    );
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => 64,
    overscan: 8,
    scrollMargin,
    getItemKey: (index) => items[index]?.id ?? index,
  });

  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !hasMore || loadingMore) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) loadMore();
      },
      { rootMargin: '300px 0px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasMore, loadingMore, loadMore, items.length]);

  const margin = virtualizer.options.scrollMargin;
  return (
    <>
      <div className="rounded-lg border border-line bg-panel">
        <ol
          ref={listRef}
          aria-label="Activity"
          className="relative"
          style={{ height: `${virtualizer.getTotalSize()}px` }}
        >
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index];
            if (!item) return null;
            return (
              <li
                key={row.key}
                data-index={row.index}
                ref={virtualizer.measureElement}
                aria-setsize={total ?? items.length}
                aria-posinset={row.index + 1}
                className={`absolute top-0 left-0 w-full ${row.index < items.length - 1 ? 'border-b border-line' : ''}`}
                style={{ transform: `translateY(${row.start - margin}px)` }}
              >
                <ActivityRow item={item} />
              </li>
            );
          })}
        </ol>
      </div>
      <div ref={sentinelRef} aria-hidden className="h-px" />
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted" role="status" data-testid="activity-count">
          Showing {formatNumber(items.length)}
          {total !== undefined ? ` of ${formatNumber(total)}` : ''}
        </p>
        {hasMore ? (
          <Button variant="secondary" busy={loadingMore} onClick={loadMore}>
            Load more
          </Button>
        ) : null}
      </div>
    </>
  );
}
