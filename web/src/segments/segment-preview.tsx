import { Link } from '@tanstack/react-router';
import { Card } from '../components/card';
import type { useFilterPreview } from '../filters/use-filter-preview';
import { formatNumber } from '../lib/format';

/** The live count of what the filter being edited matches, and the newest few of them. */
export function SegmentPreview({
  state: { preview, settling },
}: {
  state: ReturnType<typeof useFilterPreview>;
}) {
  const data = preview.isError ? undefined : preview.data;
  return (
    <Card title="Matching now">
      <p aria-live="polite" className="flex items-baseline gap-2">
        <span data-testid="preview-count" className="text-3xl font-semibold tabular-nums">
          {data ? formatNumber(data.count) : '–'}
        </span>
        <span className="text-sm text-muted">
          {preview.isError
            ? 'fix the filter to count'
            : settling
              ? 'contacts (counting…)'
              : data?.count === 1
                ? 'contact'
                : 'contacts'}
        </span>
      </p>
      {data && data.sample.length > 0 ? (
        <>
          <h3 className="mt-4 mb-1 text-xs font-medium tracking-wide text-muted uppercase">
            Newest of them
          </h3>
          <ul className="flex flex-col gap-1 text-sm">
            {data.sample.map((c) => (
              <li key={c.id} className="truncate">
                <Link
                  to="/contacts/$contactId"
                  params={{ contactId: c.id }}
                  className="text-accent hover:underline"
                >
                  {c.email}
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Card>
  );
}
