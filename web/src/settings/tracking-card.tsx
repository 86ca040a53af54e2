import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { api, unwrap } from '../api/client';
import { projectsQuery } from '../api/session';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { ErrorState } from '../components/states';
import { useToast } from '../components/toast';
import { applyApiError } from '../lib/form-errors';

type Tracking = { opens: boolean; clicks: boolean };

const KINDS = [
  {
    kind: 'opens',
    label: 'Track opens',
    hint: 'A 1×1 image at the end of each email records when it is opened.',
  },
  {
    kind: 'clicks',
    label: 'Track clicks',
    hint: 'Links go through a redirect that records the click. Off: links are left as written.',
  },
] as const;

/**
 * The project's open and click tracking: what its mail does unless a send, a campaign or a
 * template says otherwise. Members see it; admins change it.
 */
export function TrackingCard({
  project,
  canEdit,
}: {
  project: { id: string; settings: { tracking: Tracking } };
  canEdit: boolean;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [failure, setFailure] = useState<string>();
  const form = useForm<Tracking>({ values: project.settings.tracking });
  const save = useMutation({
    mutationFn: (tracking: Tracking) =>
      unwrap(
        api.PATCH('/users/@me/projects/{id}', {
          params: { path: { id: project.id } },
          body: { settings: { tracking } },
        }),
      ),
    onSuccess: async () => {
      toast('Tracking saved');
      await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey });
    },
    onError: (error) => setFailure(applyApiError(error, form.setError, [])),
  });

  return (
    <div id="tracking" className="scroll-mt-6">
      <Card title="Tracking">
        <p className="mb-4 text-sm text-muted">
          For the project&apos;s mail. A campaign, a template or a send through the API can turn
          each on or off for itself; the most specific setting wins.
        </p>
        {canEdit ? (
          <form
            noValidate
            aria-label="Tracking"
            className="flex flex-col gap-4"
            onSubmit={form.handleSubmit((values) => {
              setFailure(undefined);
              save.mutate(values);
            })}
          >
            {KINDS.map(({ kind, label, hint }) => (
              <label key={kind} className="flex items-start gap-3 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 cursor-pointer accent-accent"
                  {...form.register(kind)}
                />
                <span>
                  <span className="font-medium">{label}</span>
                  <span className="block text-xs text-muted">{hint}</span>
                </span>
              </label>
            ))}
            <Button
              type="submit"
              variant="secondary"
              busy={save.isPending}
              disabled={!form.formState.isDirty}
              className="self-start"
            >
              Save tracking
            </Button>
          </form>
        ) : (
          <>
            <dl className="grid gap-x-4 gap-y-0.5 text-sm sm:grid-cols-[10rem_1fr] sm:gap-y-2">
              <dt className="text-muted">Opens</dt>
              <dd className="mb-2 font-medium sm:mb-0">
                {project.settings.tracking.opens ? 'Tracked' : 'Not tracked'}
              </dd>
              <dt className="text-muted">Clicks</dt>
              <dd className="font-medium">
                {project.settings.tracking.clicks ? 'Tracked' : 'Not tracked'}
              </dd>
            </dl>
            <p className="mt-3 text-xs text-muted">Only admins and owners change it.</p>
          </>
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
