import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { EmptyState } from '../components/empty-state';
import { PageHeader } from '../components/page-header';
import { Select } from '../components/select';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { formatDate, formatNumber } from '../lib/format';
import { ImportDialog } from './import-dialog';
import { NewContactDialog } from './new-contact-dialog';
import { SearchForm } from './search-form';

type Contact = ResponseOf<'/contacts', 'get'>['data'][number];

export function ContactsPage() {
  const projectId = useProjectId();
  const [search, setSearch] = useState('');
  const [subscribed, setSubscribed] = useState<'' | 'true' | 'false'>('');
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const contacts = useInfiniteQuery({
    queryKey: ['project', projectId, 'contacts', search, subscribed],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/contacts', {
          params: {
            query: {
              limit: 50,
              search: search || undefined,
              subscribed: subscribed || undefined,
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

  return (
    <>
      <PageHeader
        title="Contacts"
        description={
          total === undefined
            ? undefined
            : `${formatNumber(total)} ${search || subscribed ? 'matching' : 'in all'}`
        }
        actions={
          <>
            <Button variant="secondary" onClick={() => setImporting(true)}>
              Import CSV
            </Button>
            <Button onClick={() => setCreating(true)}>New contact</Button>
          </>
        }
      />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <SearchForm value={search} onSearch={setSearch} />
        <Select
          label="Subscription"
          value={subscribed}
          onChange={(e) => setSubscribed(e.target.value as typeof subscribed)}
          options={[
            { value: '', label: 'All contacts' },
            { value: 'true', label: 'Subscribed' },
            { value: 'false', label: 'Unsubscribed' },
          ]}
        />
      </div>
      {contacts.isPending ? (
        <Loading label="Loading contacts" />
      ) : contacts.isError ? (
        <ErrorState error={contacts.error} />
      ) : rows.length === 0 ? (
        <EmptyState
          title={search || subscribed ? 'No contact matches' : 'No contacts yet'}
          action={
            search || subscribed ? undefined : (
              <Button onClick={() => setImporting(true)}>Import a CSV file</Button>
            )
          }
        >
          {search || subscribed
            ? 'Try another search or filter.'
            : 'Add one by hand, import a list, or send to an address: it becomes a contact.'}
        </EmptyState>
      ) : (
        <>
          <Table<Contact>
            caption="Contacts"
            rows={rows}
            rowKey={(c) => c.id}
            columns={[
              {
                header: 'Email',
                cell: (c) => (
                  <Link
                    to="/contacts/$contactId"
                    params={{ contactId: c.id }}
                    className="font-medium text-accent underline-offset-2 hover:underline"
                  >
                    {c.email}
                  </Link>
                ),
              },
              { header: 'Subscribed', cell: (c) => (c.subscribed ? 'Yes' : 'No') },
              { header: 'Fields', cell: (c) => Object.keys(c.data).length, wide: true },
              { header: 'Added', cell: (c) => formatDate(c.createdAt), wide: true },
            ]}
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
