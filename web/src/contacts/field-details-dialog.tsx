import { Dialog } from '../components/dialog';
import { EmptyState } from '../components/empty-state';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { formatNumber } from '../lib/format';
import { useFieldValues, valueText, type ContactField, type FieldValue } from './field-queries';
import { FieldUsageList } from './field-usage';

function FieldValues({ field }: { field: string }) {
  const values = useFieldValues(field);
  if (values.isPending) return <Loading label="Loading its values" />;
  if (values.isError) return <ErrorState error={values.error} />;
  if (values.data.values.length === 0) return <EmptyState title="No contact has a value" />;
  return (
    <div className="max-h-72 overflow-y-auto">
      <Table<FieldValue>
        caption={`Values of ${field}`}
        rows={values.data.values}
        rowKey={(v) => valueText(v.value)}
        columns={[
          {
            header: 'Value',
            cell: (v) => <span className="font-mono text-xs break-all">{valueText(v.value)}</span>,
          },
          { header: 'Contacts', cell: (v) => formatNumber(v.count) },
        ]}
      />
    </div>
  );
}

/** A custom field's distinct values (the 100 most common) and where it is used. */
export function FieldDetailsDialog({
  field,
  onClose,
}: {
  field: ContactField | undefined;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={field !== undefined}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={field ? `Field "${field.name}"` : 'Field'}
      description={
        field ? `A ${field.type} field; ${field.coverage}% of contacts have it.` : undefined
      }
    >
      {field ? (
        <div className="flex flex-col gap-5">
          <section aria-labelledby="field-values-title" className="flex flex-col gap-2">
            <h2 id="field-values-title" className="text-base font-semibold">
              Most common values
            </h2>
            <FieldValues field={field.name} />
          </section>
          <section aria-labelledby="field-usage-title" className="flex flex-col gap-2">
            <h2 id="field-usage-title" className="text-base font-semibold">
              Used by
            </h2>
            <FieldUsageList field={field.name} />
          </section>
        </div>
      ) : null}
    </Dialog>
  );
}
