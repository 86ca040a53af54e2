import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Button } from '../components/button';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useToast } from '../components/toast';
import { formatNumber } from '../lib/format';

export type BulkAction = 'subscribe' | 'unsubscribe' | 'delete';

/** A bulk job the API accepted, and what it was asked to do. */
export interface StartedBulkJob {
  jobId: string;
  action: BulkAction;
  count: number;
}

/** The API's limit of contact ids per bulk call. */
export const BULK_MAX_CONTACTS = 1000;

const PATHS = {
  subscribe: '/contacts/bulk-subscribe',
  unsubscribe: '/contacts/bulk-unsubscribe',
  delete: '/contacts/bulk-delete',
} as const;

const contactsWord = (n: number) => `${formatNumber(n)} contact${n === 1 ? '' : 's'}`;

/** What to do with the selected contacts: subscribe, unsubscribe, or delete after a confirmation. */
export function BulkActions({
  contactIds,
  running,
  onStarted,
  onClear,
}: {
  contactIds: string[];
  /** A bulk job is still running: no second one until it is done. */
  running: boolean;
  onStarted: (job: StartedBulkJob) => void;
  onClear: () => void;
}) {
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const start = useMutation({
    mutationFn: async (action: BulkAction) => {
      const accepted = await unwrap(api.POST(PATHS[action], { body: { contactIds } }));
      return { jobId: accepted.jobId, action, count: contactIds.length };
    },
    onSuccess: (job) => {
      setConfirming(false);
      onStarted(job);
    },
    onError: (error) => {
      setConfirming(false);
      toast(error.message, 'error');
    },
  });
  const count = contactIds.length;
  const tooMany = count > BULK_MAX_CONTACTS;
  const disabled = running || tooMany || start.isPending;
  const busy = (action: BulkAction) => start.isPending && start.variables === action;

  return (
    <section
      aria-label="Selected contacts"
      className="mb-3 flex flex-wrap items-center gap-2 rounded-lg border border-line bg-panel px-3 py-2"
    >
      <p className="w-full text-sm font-medium sm:mr-auto sm:w-auto" aria-live="polite">
        {contactsWord(count)} selected
        {tooMany ? (
          <span className="ml-2 font-normal text-danger">
            (at most {formatNumber(BULK_MAX_CONTACTS)} at a time)
          </span>
        ) : null}
      </p>
      <Button
        variant="secondary"
        disabled={disabled}
        busy={busy('subscribe')}
        onClick={() => start.mutate('subscribe')}
      >
        Subscribe
      </Button>
      <Button
        variant="secondary"
        disabled={disabled}
        busy={busy('unsubscribe')}
        onClick={() => start.mutate('unsubscribe')}
      >
        Unsubscribe
      </Button>
      <Button variant="danger" disabled={disabled} onClick={() => setConfirming(true)}>
        Delete…
      </Button>
      <Button variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete ${contactsWord(count)}?`}
        description="Their events and data go with them. This cannot be undone."
        confirmLabel={`Delete ${contactsWord(count)}`}
        busy={busy('delete')}
        onConfirm={() => start.mutate('delete')}
      />
    </section>
  );
}
