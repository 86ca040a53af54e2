import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Button } from '../components/button';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ErrorState } from '../components/states';
import { useToast } from '../components/toast';
import { useRefreshSegments, type Segment } from './segment-queries';

/** Count again, compute a tracked segment now, delete (a 409 names what uses the segment). */
export function SegmentActions({ segment }: { segment: Segment }) {
  const navigate = useNavigate();
  const toast = useToast();
  const refresh = useRefreshSegments();
  const [deleting, setDeleting] = useState(false);
  const path = { params: { path: { id: segment.id } } };

  const recount = useMutation({
    mutationFn: () => unwrap(api.POST('/segments/{id}/refresh', path)),
    onSuccess: async (r) => {
      await refresh();
      toast(`${r.memberCount} members`);
    },
    onError: (error) => toast(error.message, 'error'),
  });
  const compute = useMutation({
    mutationFn: () => unwrap(api.POST('/segments/{id}/compute', path)),
    onSuccess: async (r) => {
      await refresh();
      toast(`Computed: ${r.added} joined, ${r.removed} left, ${r.total} members`);
    },
    onError: (error) => toast(error.message, 'error'),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/segments/{id}', path)),
    onSuccess: async () => {
      setDeleting(false);
      toast('Segment deleted');
      await navigate({ to: '/segments' });
      await refresh();
    },
  });

  return (
    <>
      <Button variant="secondary" busy={recount.isPending} onClick={() => recount.mutate()}>
        Count again
      </Button>
      {segment.type === 'DYNAMIC' && segment.trackMembership ? (
        <Button variant="secondary" busy={compute.isPending} onClick={() => compute.mutate()}>
          Compute now
        </Button>
      ) : null}
      <Button
        variant="danger"
        onClick={() => {
          remove.reset();
          setDeleting(true);
        }}
      >
        Delete
      </Button>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete ${segment.name}?`}
        description={
          remove.isError ? (
            <span className="mt-2 block">
              <ErrorState error={remove.error} />
            </span>
          ) : (
            'Campaigns and workflows can no longer use it. Contacts stay.'
          )
        }
        confirmLabel="Delete segment"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
