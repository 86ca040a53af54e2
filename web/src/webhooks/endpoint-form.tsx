import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../components/button';
import { Input } from '../components/input';
import { ErrorState } from '../components/states';
import { applyApiError } from '../lib/form-errors';
import { isServiceEvent, parseOtherTypes, SERVICE_EVENTS } from './event-types';
import type { EndpointInput } from './use-webhooks';

const schema = z
  .object({
    url: z.string().trim().min(1, 'Enter the URL to send events to').url('Enter a full URL'),
    description: z.string().trim().max(200),
    service: z.array(z.string()),
    other: z.string(),
  })
  .refine((v) => v.service.length + parseOtherTypes(v.other).length > 0, {
    message: 'Choose at least one event',
    path: ['service'],
  });
type Values = z.infer<typeof schema>;

/** The endpoint's fields: URL, description, the service events ticked and other events typed. */
export function EndpointForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: { url: string; description: string | null; eventTypes: string[] };
  submitLabel: string;
  onSubmit: (input: EndpointInput) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [failure, setFailure] = useState<string>();
  const types = initial?.eventTypes ?? [];
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: {
      url: initial?.url ?? '',
      description: initial?.description ?? '',
      service: types.filter(isServiceEvent),
      other: types.filter((t) => !isServiceEvent(t)).join(', '),
    },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      await onSubmit({
        url: values.url,
        description: values.description || null,
        eventTypes: [...values.service, ...parseOtherTypes(values.other)],
      });
    } catch (error) {
      setFailure(applyApiError(error, form.setError, ['url', 'description']));
    }
  });

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      {failure ? <ErrorState error={new Error(failure)} /> : null}
      <Input
        label="Endpoint URL"
        type="url"
        placeholder="https://example.com/webhooks/mailwright"
        {...form.register('url')}
        error={errors.url?.message}
      />
      <Input
        label="Description (optional)"
        {...form.register('description')}
        error={errors.description?.message}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">Events to send</legend>
        <div className="grid grid-cols-2 gap-x-4 gap-y-1.5 sm:grid-cols-3">
          {SERVICE_EVENTS.map((event) => (
            <label key={event.type} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                value={event.type}
                className="size-4 accent-accent"
                {...form.register('service')}
              />
              <span>
                {event.label}
                <span className="sr-only"> ({event.type})</span>
              </span>
            </label>
          ))}
        </div>
        {errors.service?.message ? (
          <p className="text-xs text-danger" role="alert">
            {errors.service.message}
          </p>
        ) : null}
      </fieldset>
      <Input
        label="Other events"
        placeholder="signup, segment.vip.entry"
        hint="Tracked event names and segment.<slug>.entry or .exit, separated by commas."
        {...form.register('other')}
      />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" busy={isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
