import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { EmptyState } from '../components/empty-state';
import { PageHeader } from '../components/page-header';
import { Select } from '../components/select';
import { ErrorState, Loading } from '../components/states';
import type { Selection } from '../components/table';
import { formatNumber } from '../lib/format';
import { BulkActions, type StartedBulkJob } from './bulk-actions';
import { BulkProgress } from './bulk-progress';
import { ContactsTable } from './contacts-table';
import { ImportDialog } from './import-dialog';
import { NewContactDialog } from './new-contact-dialog';
import { SearchForm } from './search-form';
import { isSubscriptionState, STATE_LABELS, type SubscriptionState } from './subscription-labels';

const selectedIds = (selection: Selection): string[] =>
  Object.keys(selection).filter((id) => selection[id]);

export function ContactsPage() {
  const projectId = useProjectId();
  const [search, setSearch] = useState('');
  const [state, setState] = useState<'' | SubscriptionState>('');
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [selection, setSelection] = useState<Selection>({});
  const [bulkJob, setBulkJob] = useState<StartedBulkJob>();
  const [bulkRunning, setBulkRunning] = useState(false);
  const contacts = useInfiniteQuery({
    queryKey: ['project', projectId, 'contacts', search, state],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/contacts', {
          params: {
            query: {
              limit: 50,
              search: search || undefined,
              subscriptionState: state || undefined,
              cursor: pageParam,
            },
          },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
  });
  const rows = contacts.data?.pages.flatMap((p) => p.data) ?? [];
  const total = contacts.data?.pages[0]?.total;
  const selected = selectedIds(selection);
  // Another search or filter shows other rows: a selection of hidden rows would surprise.
  const filter = (apply: () => void) => {
    setSelection({});
    apply();
  };
  const finished = useCallback(() => {
    setBulkRunning(false);
    setSelection({});
  }, []);

  return (
    <>
      <PageHeader
        title="Contacts"
        description={
          total === undefined
            ? undefined
            : `${formatNumber(total)} ${search || state ? 'matching' : 'in all'}`
        }
        actions={
          <>
            <Link
              to="/contacts/fields"
              className="inline-flex min-h-9 items-center rounded-md border border-line bg-panel px-3.5 py-1.5 text-sm font-medium text-fg hover:bg-surface"
            >
              Fields
            </Link>
            <Button variant="secondary" onClick={() => setImporting(true)}>
              Import CSV
            </Button>
            <Button onClick={() => setCreating(true)}>New contact</Button>
          </>
        }
      />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <SearchForm value={search} onSearch={(next) => filter(() => setSearch(next))} />
        <Select
          label="Subscription"
          className="w-full sm:w-auto"
          value={state}
          onChange={(e) => {
            const next = e.target.value;
            filter(() => setState(isSubscriptionState(next) ? next : ''));
          }}
          options={[
            { value: '', label: 'All contacts' },
            ...Object.entries(STATE_LABELS).map(([value, label]) => ({ value, label })),
          ]}
        />
      </div>
      {bulkJob ? (
        <BulkProgress
          key={bulkJob.jobId}
          started={bulkJob}
          onFinished={finished}
          onDismiss={() => setBulkJob(undefined)}
        />
      ) : null}
      {selected.length > 0 ? (
        <BulkActions
          contactIds={selected}
          running={bulkRunning}
          onStarted={(job) => {
            setBulkJob(job);
            setBulkRunning(true);
          }}
          onClear={() => setSelection({})}
        />
      ) : null}
      {contacts.isPending ? (
        <Loading label="Loading contacts" />
      ) : contacts.isError ? (
        <ErrorState error={contacts.error} />
      ) : rows.length === 0 ? (
        <EmptyState
          title={search || state ? 'No contact matches' : 'No contacts yet'}
          action={
            search || state ? undefined : (
              <Button onClick={() => setImporting(true)}>Import a CSV file</Button>
            )
          }
        >
          {search || state
            ? 'Try another search or filter.'
            : 'Add one by hand, import a list, or send to an address: it becomes a contact.'}
        </EmptyState>
      ) : (
        <>
          <ContactsTable
            rows={rows}
            selection={{
              state: selection,
              onChange: setSelection,
              rowLabel: (c) => `Select ${c.email}`,
              allLabel: 'Select all contacts shown',
            }}
          />
          {contacts.hasNextPage ? (
            <div className="mt-4 flex justify-center">
              <Button
                variant="secondary"
                busy={contacts.isFetchingNextPage}
                onClick={() => void contacts.fetchNextPage()}
              >
                Load more
              </Button>
            </div>
          ) : null}
        </>
      )}
      <NewContactDialog open={creating} onOpenChange={setCreating} />
      <ImportDialog open={importing} onOpenChange={setImporting} />
    </>
  );
}
