import { useQuery } from '@tanstack/react-query';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Card } from '../components/card';
import { Select } from '../components/select';
import { FilterEditor } from '../filters/filter-editor';
import type { Filter, NodeErrors } from '../filters/filter-model';
import { AudienceCount, type useAudienceCount } from './audience-count';
import type { CampaignForm } from './campaign-form';

const CHOICES = [
  { value: 'ALL', label: 'Every contact', hint: 'All subscribed contacts of the project.' },
  { value: 'SEGMENT', label: 'A segment', hint: 'Its members when the send begins.' },
  { value: 'FILTERED', label: 'A filter', hint: 'Built here with the segment builder.' },
] as const;

/** Who gets the campaign: everyone, a segment or a filter, with the reachable count. */
export function CampaignAudience({
  form,
  filter,
  onFilterChange,
  filterErrors,
  count,
  readOnly,
}: {
  form: UseFormReturn<CampaignForm>;
  filter: Filter;
  onFilterChange: (next: Filter) => void;
  filterErrors: NodeErrors;
  count: ReturnType<typeof useAudienceCount>;
  readOnly: boolean;
}) {
  const projectId = useProjectId();
  const audienceType = useWatch({ control: form.control, name: 'audienceType' });
  const segments = useQuery({
    queryKey: ['project', projectId, 'segments'],
    queryFn: () => unwrap(api.GET('/segments')),
  });
  const { errors } = form.formState;

  return (
    <Card title="Audience">
      <fieldset className="flex flex-col gap-4" disabled={readOnly}>
        <legend className="sr-only">Audience</legend>
        <div role="radiogroup" aria-label="Send to" className="grid gap-2 sm:grid-cols-3">
          {CHOICES.map((choice) => (
            <label
              key={choice.value}
              className="flex cursor-pointer items-start gap-2 rounded-md border border-line p-3 text-sm has-checked:border-accent has-checked:bg-accent/5"
            >
              <input
                type="radio"
                value={choice.value}
                className="mt-0.5 accent-accent"
                {...form.register('audienceType')}
              />
              <span>
                <span className="font-medium">{choice.label}</span>
                <span className="block text-muted">{choice.hint}</span>
              </span>
            </label>
          ))}
        </div>
        {audienceType === 'SEGMENT' ? (
          <Select
            label="Segment"
            {...form.register('segmentId')}
            options={[
              { value: '', label: 'Choose a segment' },
              ...(segments.data ?? []).map((s) => ({
                value: s.id,
                label: `${s.name} (${s.memberCount.toLocaleString()})`,
              })),
            ]}
          />
        ) : null}
        {errors.segmentId ? (
          <p className="text-xs text-danger">{errors.segmentId.message}</p>
        ) : null}
        {audienceType === 'FILTERED' ? (
          <FilterEditor value={filter} onChange={onFilterChange} errors={filterErrors} />
        ) : null}
      </fieldset>
      <div className="mt-4">
        <AudienceCount state={count} />
      </div>
    </Card>
  );
}
