import { Link, useParams } from '@tanstack/react-router';
import { ErrorState, Loading } from '../components/states';
import { formatDate } from '../lib/format';
import { SegmentActions } from './segment-actions';
import { SegmentForm } from './segment-form';
import { SegmentMembers } from './segment-members';
import { useSegment } from './segment-queries';

function BackLink() {
  return (
    <p className="mb-2 text-sm">
      <Link to="/segments" className="text-accent underline">
        ← Segments
      </Link>
    </p>
  );
}

export function SegmentPage() {
  const { segmentId } = useParams({ from: '/app/segments/$segmentId' });
  const segment = useSegment(segmentId);
  if (segment.isPending) return <Loading label="Loading the segment" />;
  if (segment.isError) return <ErrorState error={segment.error} />;
  const s = segment.data;
  return (
    <>
      <BackLink />
      {/* Keyed by the segment: a save that renames it starts the form from the saved values. */}
      <SegmentForm key={s.id} segment={s} actions={<SegmentActions segment={s} />}>
        <SegmentMembers segment={s} />
        <p className="text-xs text-muted">
          {s.memberCount} members when last counted ({formatDate(s.memberCountAt)}) · slug{' '}
          <code>{s.slug}</code> names its <code>segment.{s.slug}.entry</code> and <code>.exit</code>{' '}
          events.
        </p>
      </SegmentForm>
    </>
  );
}

export function NewSegmentPage() {
  return (
    <>
      <BackLink />
      <SegmentForm />
    </>
  );
}
