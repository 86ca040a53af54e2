import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { Input } from '../components/input';
import { PageHeader } from '../components/page-header';
import { Select } from '../components/select';
import { ErrorState } from '../components/states';
import { useToast } from '../components/toast';
import {
  fromTrackingOption,
  toTrackingOption,
  TrackingFields,
} from '../components/tracking-fields';
import { UnsavedChangesGuard } from '../components/unsaved-changes';
import { useProject } from '../api/use-project';
import { applyApiError } from '../lib/form-errors';
import { CodeField } from './code-field';
import { TemplateActions } from './template-actions';
import { TEMPLATE_FIELDS, templateForm, type TemplateForm } from './template-fields';
import { TemplatePreview } from './template-preview';

type Template = ResponseOf<'/templates/{id}', 'get'>;

const toForm = (t: Template): TemplateForm => ({
  name: t.name,
  subject: t.subject,
  from: t.from,
  fromName: t.fromName ?? '',
  replyTo: t.replyTo ?? '',
  type: t.type,
  body: t.body,
  openTracking: toTrackingOption(t.tracking.opens),
  clickTracking: toTrackingOption(t.tracking.clicks),
});

export function TemplateEditor({ projectId, template }: { projectId: string; template: Template }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { project } = useProject();
  const [failure, setFailure] = useState<string>();
  const form = useForm<TemplateForm>({
    resolver: zodResolver(templateForm),
    defaultValues: toForm(template),
  });
  const { errors, isDirty } = form.formState;
  const [subject, body] = useWatch({ control: form.control, name: ['subject', 'body'] });

  const save = useMutation({
    mutationFn: ({ openTracking, clickTracking, ...values }: TemplateForm) =>
      unwrap(
        api.PATCH('/templates/{id}', {
          params: { path: { id: template.id } },
          body: {
            ...values,
            fromName: values.fromName || null,
            replyTo: values.replyTo || null,
            tracking: {
              opens: fromTrackingOption(openTracking),
              clicks: fromTrackingOption(clickTracking),
            },
          },
        }),
      ),
    onSuccess: (saved) => {
      form.reset(toForm(saved));
      queryClient.setQueryData(['project', projectId, 'template', template.id], saved);
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[2] === 'templates' });
      toast('Template saved');
    },
    onError: (error) => setFailure(applyApiError(error, form.setError, TEMPLATE_FIELDS)),
  });

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((values) => {
        setFailure(undefined);
        save.mutate(values);
      })}
    >
      <PageHeader
        title={template.name}
        description={isDirty ? 'Unsaved changes' : 'All changes saved'}
        actions={
          <>
            <TemplateActions template={template} content={() => form.getValues()} />
            <Button type="submit" busy={save.isPending} disabled={!isDirty}>
              Save
            </Button>
          </>
        }
      />
      {failure ? (
        <div className="mb-4">
          <ErrorState error={new Error(failure)} />
        </div>
      ) : null}
      <div className="grid gap-6 xl:grid-cols-2">
        <Card>
          <div className="grid gap-4 sm:grid-cols-2">
            <Input label="Name" {...form.register('name')} error={errors.name?.message} />
            <Select
              label="Type"
              {...form.register('type')}
              options={[
                { value: 'MARKETING', label: 'Marketing' },
                { value: 'TRANSACTIONAL', label: 'Transactional' },
              ]}
            />
            <Input
              label="Subject"
              className="sm:col-span-2"
              {...form.register('subject')}
              error={errors.subject?.message}
            />
            <Input
              label="From"
              type="email"
              {...form.register('from')}
              error={errors.from?.message}
            />
            <Input
              label="From name"
              {...form.register('fromName')}
              error={errors.fromName?.message}
            />
            <Input
              label="Reply-to"
              type="email"
              {...form.register('replyTo')}
              error={errors.replyTo?.message}
            />
          </div>
          <div className="mt-4 flex flex-col gap-1">
            <span id="body-label" className="text-sm font-medium">
              HTML body
            </span>
            <Controller
              control={form.control}
              name="body"
              render={({ field }) => (
                <CodeField label="HTML body" value={field.value} onChange={field.onChange} />
              )}
            />
            {errors.body ? <p className="text-xs text-danger">{errors.body.message}</p> : null}
            <p className="text-xs text-muted">
              Variables: {'{{ firstName }}'}, {"{{ name ?? 'there' }}"}, {'{{ unsubscribeUrl }}'};
              nunjucks tags such as {'{% if %}'}.
            </p>
          </div>
          <div className="mt-6 border-t border-line pt-4">
            <TrackingFields
              opens={form.register('openTracking')}
              clicks={form.register('clickTracking')}
              inherited={project?.settings.tracking}
              inheritedFrom="the project's setting (Settings); a campaign or a send can still say otherwise"
            />
          </div>
        </Card>
        <TemplatePreview projectId={projectId} subject={subject} body={body} />
      </div>
      <UnsavedChangesGuard dirty={isDirty && !save.isPending} />
    </form>
  );
}
