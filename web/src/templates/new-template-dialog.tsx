import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { api, unwrap } from '../api/client';
import { Button } from '../components/button';
import { Dialog } from '../components/dialog';
import { Input } from '../components/input';
import { ErrorState } from '../components/states';
import { applyApiError } from '../lib/form-errors';
import { STARTER_BODY, templateForm } from './template-fields';

const schema = templateForm.pick({ name: true, subject: true, from: true });
type Values = { name: string; subject: string; from: string };

export function NewTemplateDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string>();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { name: '', subject: '', from: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const created = await unwrap(
        api.POST('/templates', { body: { ...values, body: STARTER_BODY, type: 'MARKETING' } }),
      );
      onOpenChange(false);
      await navigate({ to: '/templates/$templateId', params: { templateId: created.id } });
    } catch (error) {
      setFailure(applyApiError(error, form.setError, ['name', 'subject', 'from']));
    }
  });

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New template"
      description="You write the body in the editor next."
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {failure ? <ErrorState error={new Error(failure)} /> : null}
        <Input label="Name" {...form.register('name')} error={errors.name?.message} />
        <Input label="Subject" {...form.register('subject')} error={errors.subject?.message} />
        <Input
          label="From"
          type="email"
          placeholder="hello@your-domain.com"
          {...form.register('from')}
          error={errors.from?.message}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" busy={isSubmitting}>
            Create and edit
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
