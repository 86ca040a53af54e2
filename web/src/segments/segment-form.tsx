import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { api, ApiError, unwrap } from '../api/client';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { Input } from '../components/input';
import { PageHeader } from '../components/page-header';
import { Select } from '../components/select';
import { ErrorState } from '../components/states';
import { useToast } from '../components/toast';
import { UnsavedChangesGuard } from '../components/unsaved-changes';
import { FilterEditor } from '../filters/filter-editor';
import {
  emptyFilter,
  errorsByNode,
  NO_ERRORS,
  type Filter,
  type NodeErrors,
} from '../filters/filter-model';
import { useFilterPreview } from '../filters/use-filter-preview';
import { applyApiError } from '../lib/form-errors';
import { useRefreshSegments, type Segment } from './segment-queries';
import { SegmentPreview } from './segment-preview';

const details = z.object({
  name: z.string().trim().min(1, 'Give the segment a name').max(200),
  description: z.string().max(2000),
  type: z.enum(['DYNAMIC', 'STATIC']),
  trackMembership: z.boolean(),
});
type Details = z.infer<typeof details>;
const DETAIL_FIELDS = ['name', 'description', 'type', 'trackMembership'] as const;

const toDetails = (s: Segment | undefined): Details => ({
  name: s?.name ?? '',
  description: s?.description ?? '',
  type: s?.type ?? 'DYNAMIC',
  trackMembership: s?.trackMembership ?? false,
});
const filterOf = (s: Segment | undefined): Filter => (s?.filters as Filter | null) ?? emptyFilter();

/** Creates a segment (no `segment`) or edits one: its details, and the filter of a DYNAMIC one. */
export function SegmentForm({
  segment,
  actions,
  children,
}: {
  segment?: Segment;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const formId = useId();
  const navigate = useNavigate();
  const toast = useToast();
  const refresh = useRefreshSegments();
  const form = useForm<Details>({
    resolver: zodResolver(details),
    defaultValues: toDetails(segment),
  });
  const { errors, isDirty } = form.formState;
  const type = useWatch({ control: form.control, name: 'type' });
  const [filter, setFilter] = useState<Filter>(() => filterOf(segment));
  const [savedFilter, setSavedFilter] = useState(() => JSON.stringify(filterOf(segment)));
  const [saveErrors, setSaveErrors] = useState<NodeErrors>(NO_ERRORS);
  const [failure, setFailure] = useState<string>();
  const [created, setCreated] = useState<string>();
  const dynamic = type === 'DYNAMIC';
  const preview = useFilterPreview(filter, { enabled: dynamic });
  const filterDirty = dynamic && JSON.stringify(filter) !== savedFilter;
  const dirty = isDirty || filterDirty;

  // Navigates once the saved state has rendered, so the unsaved-changes guard lets it through.
  useEffect(() => {
    if (created) void navigate({ to: '/segments/$segmentId', params: { segmentId: created } });
  }, [created, navigate]);

  const save = useMutation({
    mutationFn: (values: Details) => {
      const common = {
        name: values.name,
        description: values.description.trim() || null,
        trackMembership: values.trackMembership,
        ...(values.type === 'DYNAMIC' ? { filters: filter } : {}),
      };
      return segment
        ? unwrap(
            api.PATCH('/segments/{id}', { params: { path: { id: segment.id } }, body: common }),
          )
        : unwrap(api.POST('/segments', { body: { ...common, type: values.type } }));
    },
    onSuccess: async (saved) => {
      form.reset(toDetails(saved));
      setSavedFilter(JSON.stringify(filter));
      await refresh();
      toast(segment ? 'Segment saved' : 'Segment created');
      if (!segment) setCreated(saved.id);
    },
    onError: (error) => {
      setSaveErrors(
        error instanceof ApiError ? errorsByNode(error.fieldErrors, 'filters') : NO_ERRORS,
      );
      const rest = applyApiError(error, form.setError, DETAIL_FIELDS);
      const onlyFilter =
        error instanceof ApiError &&
        error.fieldErrors.length > 0 &&
        error.fieldErrors.every((f) => (f.field ?? '').startsWith('filters'));
      setFailure(onlyFilter ? 'The filter has problems: see the conditions marked below.' : rest);
    },
  });

  const filterErrors = preview.errors.size > 0 ? preview.errors : saveErrors;

  return (
    <div>
      <PageHeader
        title={segment ? segment.name : 'New segment'}
        description={
          segment
            ? dirty
              ? 'Unsaved changes'
              : 'All changes saved'
            : 'Name it, choose how contacts join, and save.'
        }
        actions={
          <>
            {actions}
            <Button
              type="submit"
              form={formId}
              busy={save.isPending}
              disabled={Boolean(segment) && !dirty}
            >
              {segment ? 'Save' : 'Create segment'}
            </Button>
          </>
        }
      />
      {failure ? (
        <div className="mb-4">
          <ErrorState error={new Error(failure)} />
        </div>
      ) : null}
      <div
        className={`grid gap-6 ${dynamic ? 'lg:grid-cols-[minmax(0,2fr)_minmax(16rem,1fr)]' : 'max-w-3xl'}`}
      >
        <div className="flex min-w-0 flex-col gap-6">
          <form
            id={formId}
            noValidate
            className="flex flex-col gap-6"
            onSubmit={form.handleSubmit((values) => {
              setFailure(undefined);
              save.mutate(values);
            })}
          >
            <Card title="Details">
              <div className="grid gap-4 sm:grid-cols-2">
                <Input label="Name" {...form.register('name')} error={errors.name?.message} />
                {segment ? (
                  <div className="flex flex-col gap-1 text-sm">
                    <span className="font-medium">Type</span>
                    <span className="min-h-9 py-1.5 text-muted">
                      {dynamic
                        ? 'Dynamic: the contacts the filter matches'
                        : 'Static: a list you keep'}
                    </span>
                  </div>
                ) : (
                  <Select
                    label="Type"
                    {...form.register('type')}
                    options={[
                      { value: 'DYNAMIC', label: 'Dynamic: a filter' },
                      { value: 'STATIC', label: 'Static: a list of contacts' },
                    ]}
                  />
                )}
                <Input
                  label="Description"
                  className="sm:col-span-2"
                  {...form.register('description')}
                  error={errors.description?.message}
                />
                {dynamic ? (
                  <label className="flex items-start gap-2 text-sm sm:col-span-2">
                    <input
                      type="checkbox"
                      className="mt-0.5 size-4 accent-accent"
                      {...form.register('trackMembership')}
                    />
                    <span>
                      <span className="font-medium">Track membership</span>
                      <span className="block text-muted">
                        Record who joins and leaves (segment entry and exit events, which can start
                        workflows). Computed every few minutes.
                      </span>
                    </span>
                  </label>
                ) : null}
              </div>
            </Card>
            {dynamic ? (
              <Card title="Filter">
                <FilterEditor
                  value={filter}
                  onChange={(next) => {
                    setFilter(next);
                    setSaveErrors(NO_ERRORS);
                  }}
                  errors={filterErrors}
                  excludeSegmentId={segment?.id}
                />
              </Card>
            ) : null}
          </form>
        </div>
        {dynamic ? (
          <div className="min-w-0">
            <div className="lg:sticky lg:top-6">
              <SegmentPreview state={preview} />
            </div>
          </div>
        ) : null}
      </div>
      {children ? <div className="mt-6 flex flex-col gap-4">{children}</div> : null}
      <UnsavedChangesGuard dirty={dirty && !save.isPending && !created} />
    </div>
  );
}
