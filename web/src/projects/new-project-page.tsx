import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, unwrap } from '../api/client';
import { selectProject } from '../api/project-store';
import { projectsQuery } from '../api/session';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { Input } from '../components/input';
import { PageHeader } from '../components/page-header';
import { ErrorState } from '../components/states';
import { applyApiError } from '../lib/form-errors';

const schema = z.object({ name: z.string().trim().min(1, 'Name the project').max(100) });
type Values = z.infer<typeof schema>;

export function NewProjectPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string>();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { name: '' } });

  const submit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const project = await unwrap(api.POST('/users/@me/projects', { body: values }));
      selectProject(project.id);
      await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey });
      await navigate({ to: '/' });
    } catch (error) {
      setFailure(applyApiError(error, form.setError, ['name']));
    }
  });

  return (
    <div className="max-w-lg">
      <PageHeader
        title="New project"
        description="A project holds its own contacts, templates, domains and keys."
      />
      <Card>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          {failure ? <ErrorState error={new Error(failure)} /> : null}
          <Input
            label="Project name"
            {...form.register('name')}
            error={form.formState.errors.name?.message}
          />
          <Button type="submit" busy={form.formState.isSubmitting} className="self-start">
            Create project
          </Button>
        </form>
      </Card>
    </div>
  );
}
