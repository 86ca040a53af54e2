import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Card } from '../components/card';
import { Input } from '../components/input';
import { Select } from '../components/select';
import { CodeField } from '../templates/code-field';
import { TemplatePreview } from '../templates/template-preview';
import type { CampaignForm } from './campaign-form';
import { templateListQuery } from '../templates/template-list-query';

/** What the email says and who it is from: a template to start from, or written here. */
export function CampaignContent({
  form,
  domains,
  readOnly,
}: {
  form: UseFormReturn<CampaignForm>;
  domains: string[];
  readOnly: boolean;
}) {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const { errors } = form.formState;
  const [subject, body, templateId] = useWatch({
    control: form.control,
    name: ['subject', 'body', 'templateId'],
  });
  // The code editor is uncontrolled once mounted: a template's body remounts it.
  const [editorVersion, setEditorVersion] = useState(0);
  const templates = useQuery({
    ...templateListQuery(projectId),
  });

  // Picking a template copies its content into the campaign, where it can still be changed.
  const applyTemplate = async (templateId: string) => {
    form.setValue('templateId', templateId, { shouldDirty: true });
    if (!templateId) return;
    const t = await queryClient.fetchQuery({
      queryKey: ['project', projectId, 'template', templateId],
      queryFn: () => unwrap(api.GET('/templates/{id}', { params: { path: { id: templateId } } })),
    });
    const [local, domain] = t.from.split('@');
    const dirty = { shouldDirty: true, shouldValidate: true };
    form.setValue('subject', t.subject, dirty);
    form.setValue('body', t.body, dirty);
    if (local) form.setValue('fromLocal', local, dirty);
    if (domain && domains.includes(domain)) form.setValue('fromDomain', domain, dirty);
    form.setValue('fromName', t.fromName ?? '', dirty);
    form.setValue('replyTo', t.replyTo ?? '', dirty);
    setEditorVersion((v) => v + 1);
  };

  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
      <Card title="Email">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Select
            label="Start from a template"
            className="sm:col-span-2"
            value={templateId}
            onChange={(e) => void applyTemplate(e.target.value)}
            disabled={readOnly}
            options={[
              { value: '', label: 'None: write it here' },
              ...(templates.data?.templates ?? []).map((t) => ({ value: t.id, label: t.name })),
            ]}
          />
          <Input
            label="Subject"
            className="sm:col-span-2"
            {...form.register('subject')}
            error={errors.subject?.message}
          />
          <div className="flex flex-col gap-1 sm:col-span-2">
            <span id="from-label" className="text-sm font-medium">
              From
            </span>
            <div className="flex items-center gap-1">
              <input
                aria-label="From (before @)"
                aria-invalid={errors.fromLocal ? true : undefined}
                placeholder="news"
                className="min-h-9 w-36 rounded-md border border-line bg-panel px-3 py-1.5 text-sm aria-invalid:border-danger"
                {...form.register('fromLocal')}
              />
              <span aria-hidden>@</span>
              <select
                aria-label="Sending domain"
                className="min-h-9 min-w-0 flex-1 rounded-md border border-line bg-panel px-2 py-1.5 text-sm"
                {...form.register('fromDomain')}
              >
                {domains.length === 0 ? <option value="">No verified domain</option> : null}
                {domains.map((d) => (
                  <option key={d} value={d}>
                    {d}
                  </option>
                ))}
              </select>
            </div>
            {errors.fromLocal || errors.fromDomain ? (
              <p className="text-xs text-danger">
                {errors.fromLocal?.message ?? errors.fromDomain?.message}
              </p>
            ) : (
              <p className="text-xs text-muted">Only the project&apos;s verified domains.</p>
            )}
          </div>
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
          <span className="text-sm font-medium">HTML body</span>
          <Controller
            control={form.control}
            name="body"
            render={({ field }) =>
              readOnly ? (
                <pre className="max-h-72 overflow-auto rounded-md border border-line bg-surface p-3 text-xs whitespace-pre-wrap">
                  {field.value}
                </pre>
              ) : (
                <CodeField
                  key={editorVersion}
                  label="HTML body"
                  value={field.value}
                  onChange={field.onChange}
                />
              )
            }
          />
          {errors.body ? <p className="text-xs text-danger">{errors.body.message}</p> : null}
        </div>
      </Card>
      <TemplatePreview projectId={projectId} subject={subject} body={body} />
    </div>
  );
}
