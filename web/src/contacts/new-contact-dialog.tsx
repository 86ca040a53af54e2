import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, unwrap } from '../api/client';
import { Button } from '../components/button';
import { Dialog } from '../components/dialog';
import { Input } from '../components/input';
import { ErrorState } from '../components/states';
import { applyApiError } from '../lib/form-errors';

const schema = z.object({ email: z.email('Enter an email address'), subscribed: z.boolean() });
type Values = z.infer<typeof schema>;

export function NewContactDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string>();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { email: '', subscribed: true },
  });

  const submit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const contact = await unwrap(api.POST('/contacts', { body: values }));
      await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[2] === 'contacts' });
      onOpenChange(false);
      form.reset();
      await navigate({ to: '/contacts/$contactId', params: { contactId: contact.id } });
    } catch (error) {
      setFailure(applyApiError(error, form.setError, ['email', 'subscribed']));
    }
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="New contact">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {failure ? <ErrorState error={new Error(failure)} /> : null}
        <Input
          label="Email"
          type="email"
          {...form.register('email')}
          error={form.formState.errors.email?.message}
        />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...form.register('subscribed')} className="size-4" />
          Subscribed to marketing email
        </label>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" busy={form.formState.isSubmitting}>
            Create contact
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
