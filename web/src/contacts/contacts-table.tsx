import { Link } from '@tanstack/react-router';
import type { ResponseOf } from '../api/types';
import { Table, type RowSelection } from '../components/table';
import { formatDate } from '../lib/format';
import { SubscriptionBadge } from './subscription-badge';

export type Contact = ResponseOf<'/contacts', 'get'>['data'][number];

/** The contact list: email (a link to the contact), subscription state, field count and date added. */
export function ContactsTable({
  rows,
  selection,
}: {
  rows: Contact[];
  selection: RowSelection<Contact>;
}) {
  return (
    <Table<Contact>
      caption="Contacts"
      rows={rows}
      rowKey={(c) => c.id}
      selection={selection}
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
        { header: 'Subscription', cell: (c) => <SubscriptionBadge state={c.subscriptionState} /> },
        { header: 'Fields', cell: (c) => Object.keys(c.data).length, wide: true },
        { header: 'Added', cell: (c) => formatDate(c.createdAt), wide: true },
      ]}
    />
  );
}
