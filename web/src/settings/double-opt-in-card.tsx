import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, unwrap } from '../api/client';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { Select } from '../components/select';
import { ErrorState, Loading } from '../components/states';
import { useToast } from '../components/toast';
import { applyApiError } from '../lib/form-errors';
import { templateListQuery } from '../templates/template-list-query';

const schema = z.object({ enabled: z.boolean(), templateId: z.string() });
type Values = z.infer<typeof schema>;

const BUILT_IN = '';

/** The setting in words, for members (who cannot change it). */
function Summary({ enabled, template }: { enabled: boolean; template: string }) {
  return (
    <>
      <dl className="grid gap-x-4 gap-y-0.5 text-sm sm:grid-cols-[10rem_1fr] sm:gap-y-2">
        <dt className="text-muted">Double opt-in</dt>
        <dd className="mb-2 font-medium sm:mb-0">
          {enabled ? 'On: new subscribers confirm by email' : 'Off: subscribed at once'}
        </dd>
        <dt className="text-muted">Confirmation email</dt>
        <dd className="font-medium">{template}</dd>
      </dl>
      <p className="mt-3 text-xs text-muted">Only admins and owners change this setting.</p>
    </>
  );
}

/**
 * Double opt-in: whether people who subscribe through the public key (a signup form, the
 * tracking snippet) must click a link in a confirmation email first, and which email that is.
 * Members see it; admins change it.
 */
export function DoubleOptInCard({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [failure, setFailure] = useState<string>();
  const key = ['project', projectId, 'double-opt-in'];
  const setting = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/double-opt-in')),
  });
  const templates = useQuery(templateListQuery(projectId));
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    values: setting.data && {
      enabled: setting.data.enabled,
      templateId: setting.data.templateId ?? BUILT_IN,
    },
  });
  const save = useMutation({
    mutationFn: (values: Values) =>
      unwrap(
        api.PUT('/double-opt-in', {
          body: {
            enabled: values.enabled,
            templateId: values.templateId === BUILT_IN ? null : values.templateId,
          },
        }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
      toast(saved.enabled ? 'Double opt-in is on' : 'Double opt-in is off');
    },
    onError: (error) => setFailure(applyApiError(error, form.setError, ['enabled', 'templateId'])),
  });
  const errors = form.formState.errors;
  const templateList = templates.data?.templates ?? [];
  const chosenName = (id: string | null | undefined) =>
    id
      ? (templateList.find((t) => t.id === id)?.name ?? 'A template of the project')
      : 'The built-in email';

  return (
    <div id="double-opt-in" className="scroll-mt-6">
      <Card title="Double opt-in">
        <p className="mb-4 text-sm text-muted">
          People who subscribe through the public key (a signup form posting to{' '}
          <code className="text-xs">/v1/subscribe</code>, or{' '}
          <code className="text-xs">/v1/track</code>) get an email with a link, and are subscribed
          only once they click it. Until then they show as{' '}
          <Link to="/contacts" className="text-accent underline underline-offset-2">
            awaiting confirmation
          </Link>{' '}
          and get no campaign or workflow email.
        </p>
        {setting.isPending || templates.isPending ? (
          <Loading />
        ) : setting.isError ? (
          <ErrorState error={setting.error} />
        ) : canEdit ? (
          <form
            noValidate
            aria-label="Double opt-in"
            className="flex flex-col gap-4"
            onSubmit={form.handleSubmit((values) => {
              setFailure(undefined);
              save.mutate(values);
            })}
          >
            <div>
              <label className="flex items-start gap-3 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 cursor-pointer accent-accent"
                  aria-describedby="double-opt-in-enabled-hint"
                  {...form.register('enabled')}
                />
                <span>
                  <span className="font-medium">Ask new subscribers to confirm by email</span>
                  <span id="double-opt-in-enabled-hint" className="block text-xs text-muted">
                    The link works for {setting.data.linkValidDays} days; an expired one offers a
                    new link. Contacts you add yourself (secret key, dashboard, import) are
                    subscribed at once.
                  </span>
                </span>
              </label>
              {errors.enabled?.message ? (
                <p role="alert" className="mt-1 text-sm text-danger">
                  {errors.enabled.message}{' '}
                  <Link to="/domains" className="underline underline-offset-2">
                    Domains
                  </Link>
                </p>
              ) : null}
            </div>
            <div className="max-w-md">
              <Select
                label="Confirmation email"
                options={[
                  { value: BUILT_IN, label: 'Built-in email (from no-reply@ your domain)' },
                  ...templateList.map((t) => ({ value: t.id, label: t.name })),
                ]}
                aria-describedby="double-opt-in-template-hint"
                {...form.register('templateId')}
              />
              <p id="double-opt-in-template-hint" className="mt-1 text-xs text-muted">
                A template of yours must link to{' '}
                <code className="text-xs">{'{{ confirmUrl }}'}</code> and send from a verified
                domain; it can also use <code className="text-xs">{'{{ projectName }}'}</code>.
              </p>
              {errors.templateId?.message ? (
                <p role="alert" className="mt-1 text-sm text-danger">
                  {errors.templateId.message}
                </p>
              ) : null}
            </div>
            <Button type="submit" variant="secondary" busy={save.isPending} className="self-start">
              Save double opt-in
            </Button>
          </form>
        ) : (
          <Summary enabled={setting.data.enabled} template={chosenName(setting.data.templateId)} />
        )}
        {failure ? (
          <div className="mt-3">
            <ErrorState error={new Error(failure)} />
          </div>
        ) : null}
      </Card>
    </div>
  );
}
