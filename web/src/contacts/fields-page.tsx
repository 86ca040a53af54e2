import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../components/button';
import { EmptyState } from '../components/empty-state';
import { PageHeader } from '../components/page-header';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { FieldDeleteDialog } from './field-delete-dialog';
import { FieldDetailsDialog } from './field-details-dialog';
import { useContactFields, type ContactField } from './field-queries';

function Coverage({ percent }: { percent: number }) {
  return (
    <div className="flex items-center gap-2">
      <span className="text-right tabular-nums sm:w-12">{percent}%</span>
      <span aria-hidden className="hidden h-1.5 w-20 overflow-hidden rounded bg-surface sm:block">
        <span className="block h-full bg-accent" style={{ width: `${percent}%` }} />
      </span>
    </div>
  );
}

/** The project's contact fields: type, coverage, values and usage; custom ones can be deleted. */
export function FieldsPage() {
  const fields = useContactFields();
  const [details, setDetails] = useState<ContactField>();
  const [deleting, setDeleting] = useState<ContactField>();
  const list = fields.data?.fields ?? [];
  const custom = list.filter((f) => f.kind === 'custom').length;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/contacts" className="text-accent underline">
          ← Contacts
        </Link>
      </p>
      <PageHeader
        title="Contact fields"
        description="Every contact has the standard fields; custom fields come from contact data (imports, the API, tracked events)."
      />
      {fields.isPending ? (
        <Loading label="Loading the fields" />
      ) : fields.isError ? (
        <ErrorState error={fields.error} />
      ) : (
        <div className="flex flex-col gap-4">
          <Table<ContactField>
            caption="Contact fields"
            rows={list}
            rowKey={(f) => `${f.kind}:${f.name}`}
            columns={[
              {
                header: 'Field',
                cell: (f) => <span className="font-mono text-xs whitespace-nowrap">{f.name}</span>,
              },
              {
                header: 'Kind',
                cell: (f) => (f.kind === 'custom' ? 'Custom' : 'Standard'),
                wide: true,
              },
              { header: 'Type', cell: (f) => f.type },
              { header: 'Coverage', cell: (f) => <Coverage percent={f.coverage} /> },
              {
                header: 'Actions',
                cell: (f) =>
                  f.kind === 'custom' ? (
                    <div className="flex flex-col items-start gap-1 sm:flex-row">
                      <Button
                        variant="secondary"
                        className="min-h-7 px-2 py-0.5 text-xs"
                        aria-label={`Values and usage of ${f.name}`}
                        onClick={() => setDetails(f)}
                      >
                        Details
                      </Button>
                      <Button
                        variant="ghost"
                        className="min-h-7 px-2 py-0.5 text-xs text-danger!"
                        aria-label={`Delete ${f.name}`}
                        onClick={() => setDeleting(f)}
                      >
                        Delete
                      </Button>
                    </div>
                  ) : (
                    <span className="text-xs text-muted">Built in</span>
                  ),
              },
            ]}
          />
          {custom === 0 ? (
            <EmptyState title="No custom fields yet">
              Contact data such as <code>plan</code> or <code>first_name</code> becomes a custom
              field here once a contact has it.
            </EmptyState>
          ) : null}
        </div>
      )}
      <FieldDetailsDialog field={details} onClose={() => setDetails(undefined)} />
      <FieldDeleteDialog field={deleting} onClose={() => setDeleting(undefined)} />
    </>
  );
}
