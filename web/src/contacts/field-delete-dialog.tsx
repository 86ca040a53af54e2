import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { Dialog } from '../components/dialog';
import { useToast } from '../components/toast';
import { formatNumber } from '../lib/format';
import { useFieldUsage, type ContactField } from './field-queries';
import { FieldUsageList, usageCount } from './field-usage';

/** Shows where the field is used, then removes it from every contact once confirmed. */
export function FieldDeleteDialog({
  field,
  onClose,
}: {
  field: ContactField | undefined;
  onClose: () => void;
}) {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const toast = useToast();
  const name = field?.name ?? '';
  const usage = useFieldUsage(name, field !== undefined);
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/contacts/fields/{field}', { params: { path: { field: name } } })),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({
        predicate: (q) => q.queryKey[1] === projectId && q.queryKey[2] === 'contacts',
      });
      toast(
        `Removed "${result.field}" from ${formatNumber(result.affected)} contact${result.affected === 1 ? '' : 's'}.`,
      );
      onClose();
    },
    onError: (error) => toast(error.message, 'error'),
  });
  const used = usage.data ? usageCount(usage.data) : 0;

  return (
    <Dialog
      open={field !== undefined}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Delete the field "${name}"?`}
      description={`It is removed from the data of every contact that has it (${field?.coverage ?? 0}% of contacts). This cannot be undone.`}
    >
      <div className="flex flex-col gap-4">
        <section aria-labelledby="delete-usage-title" className="flex flex-col gap-2">
          <h2 id="delete-usage-title" className="text-sm font-semibold">
            Where it is used
          </h2>
          {field ? <FieldUsageList field={field.name} /> : null}
          {used > 0 ? (
            <p className="text-sm text-danger">
              These will find no value for it once it is deleted.
            </p>
          ) : null}
        </section>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={!usage.isSuccess}
            busy={remove.isPending}
            onClick={() => remove.mutate()}
          >
            Delete field
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
