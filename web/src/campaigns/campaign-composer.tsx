import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { api, ApiError, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { Input } from '../components/input';
import { PageHeader } from '../components/page-header';
import { ErrorState } from '../components/states';
import { useToast } from '../components/toast';
import { UnsavedChangesGuard } from '../components/unsaved-changes';
import {
  emptyFilter,
  errorsByNode,
  NO_ERRORS,
  type Filter,
  type NodeErrors,
} from '../filters/filter-model';
import { applyApiError } from '../lib/form-errors';
import { formatDate } from '../lib/format';
import { useAudienceCount } from './audience-count';
import { CampaignActions } from './campaign-actions';
import { CampaignAudience } from './campaign-audience';
import { CampaignContent } from './campaign-content';
import { CampaignTracking } from './campaign-tracking';
import { campaignForm, FORM_FIELDS, toBody, toForm, type CampaignForm } from './campaign-form';
import { campaignKey, campaignsKey, type Campaign } from './campaign-queries';
import { StatusBadge } from './status-badge';

const filterOf = (c: Campaign | undefined): Filter =>
  (c?.audienceFilter as Filter | null) ?? emptyFilter();

/** Writes a campaign (no `campaign`) or edits a DRAFT; once sent it is shown read-only. */
export function CampaignComposer({
  campaign,
  domains,
}: {
  campaign?: Campaign;
  domains: string[];
}) {
  const formId = useId();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const readOnly = campaign !== undefined && campaign.status !== 'DRAFT';
  const form = useForm<CampaignForm>({
    resolver: zodResolver(campaignForm),
    defaultValues: toForm(campaign, domains),
  });
  const [filter, setFilter] = useState<Filter>(() => filterOf(campaign));
  const [savedFilter, setSavedFilter] = useState(() => JSON.stringify(filterOf(campaign)));
  const [saveErrors, setSaveErrors] = useState<NodeErrors>(NO_ERRORS);
  const [failure, setFailure] = useState<string>();
  const [created, setCreated] = useState<string>();
  const [audienceType, segmentId] = useWatch({
    control: form.control,
    name: ['audienceType', 'segmentId'],
  });
  const filterDirty = audienceType === 'FILTERED' && JSON.stringify(filter) !== savedFilter;
  const dirty = !readOnly && (form.formState.isDirty || filterDirty);
  const count = useAudienceCount(
    audienceType === 'SEGMENT' && !segmentId
      ? undefined
      : audienceType === 'FILTERED'
        ? { audienceType, audienceFilter: filter }
        : { audienceType, segmentId: audienceType === 'SEGMENT' ? segmentId : null },
  );

  useEffect(() => {
    if (created) void navigate({ to: '/campaigns/$campaignId', params: { campaignId: created } });
  }, [created, navigate]);

  const save = useMutation({
    mutationFn: (values: CampaignForm) => {
      const body = toBody(values, filter);
      return campaign
        ? unwrap(api.PUT('/campaigns/{id}', { params: { path: { id: campaign.id } }, body }))
        : unwrap(api.POST('/campaigns', { body }));
    },
    onSuccess: async ({ data }) => {
      form.reset(toForm(data, domains));
      setSavedFilter(JSON.stringify(filter));
      queryClient.setQueryData(campaignKey(projectId, data.id), data);
      await queryClient.invalidateQueries({ queryKey: campaignsKey(projectId) });
      toast(campaign ? 'Campaign saved' : 'Campaign created');
      if (!campaign) setCreated(data.id);
    },
    onError: (error) => {
      setSaveErrors(
        error instanceof ApiError ? errorsByNode(error.fieldErrors, 'audienceFilter') : NO_ERRORS,
      );
      if (error instanceof ApiError) {
        for (const f of error.fieldErrors) {
          if (f.field === 'from') form.setError('fromLocal', { message: f.message ?? 'Invalid' });
        }
      }
      setFailure(applyApiError(error, form.setError, FORM_FIELDS));
    },
  });

  return (
    <div>
      <PageHeader
        title={campaign ? campaign.name : 'New campaign'}
        description={
          campaign ? (
            <span className="flex flex-wrap items-center gap-2">
              <StatusBadge status={campaign.status} />
              {campaign.scheduledAt ? `for ${formatDate(campaign.scheduledAt)}` : null}
              {readOnly ? 'Sent campaigns are read-only: duplicate one to send it again.' : null}
              {!readOnly ? (dirty ? 'Unsaved changes' : 'All changes saved') : null}
            </span>
          ) : (
            'Write it, choose who gets it, save; then test, schedule or send.'
          )
        }
        actions={
          <>
            {campaign ? (
              <CampaignActions
                campaign={campaign}
                dirty={dirty}
                reachable={count.measured.data?.reachable}
              />
            ) : null}
            {readOnly ? null : (
              <Button
                type="submit"
                form={formId}
                variant={campaign ? 'secondary' : 'primary'}
                busy={save.isPending}
                disabled={Boolean(campaign) && !dirty}
              >
                {campaign ? 'Save' : 'Create campaign'}
              </Button>
            )}
          </>
        }
      />
      {failure ? (
        <div className="mb-4">
          <ErrorState error={new Error(failure)} />
        </div>
      ) : null}
      <form
        id={formId}
        noValidate
        onSubmit={form.handleSubmit((values) => {
          setFailure(undefined);
          save.mutate(values);
        })}
      >
        <fieldset disabled={readOnly} className="flex min-w-0 flex-col gap-6">
          <Card>
            <Input
              label="Name"
              {...form.register('name')}
              error={form.formState.errors.name?.message}
            />
          </Card>
          <CampaignContent form={form} domains={domains} readOnly={readOnly} />
          <CampaignTracking form={form} />
        </fieldset>
      </form>
      <div className="mt-6">
        <CampaignAudience
          form={form}
          filter={filter}
          onFilterChange={(next) => {
            setFilter(next);
            setSaveErrors(NO_ERRORS);
          }}
          filterErrors={count.errors.size > 0 ? count.errors : saveErrors}
          count={count}
          readOnly={readOnly}
        />
      </div>
      <UnsavedChangesGuard dirty={dirty && !save.isPending && !created} />
    </div>
  );
}
