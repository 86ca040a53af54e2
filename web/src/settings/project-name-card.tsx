import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { api, unwrap } from '../api/client';
import { projectsQuery } from '../api/session';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { Input } from '../components/input';
import { ErrorState } from '../components/states';
import { useToast } from '../components/toast';
import { applyApiError } from '../lib/form-errors';

export function ProjectNameCard({ project }: { project: { id: string; name: string } }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [failure, setFailure] = useState<string>();
  const form = useForm<{ name: string }>({ values: { name: project.name } });
  const rename = useMutation({
    mutationFn: (name: string) =>
      unwrap(
        api.PATCH('/users/@me/projects/{id}', {
          params: { path: { id: project.id } },
          body: { name },
        }),
      ),
    onSuccess: async () => {
      toast('Project renamed');
      await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey });
    },
    onError: (error) => setFailure(applyApiError(error, form.setError, ['name'])),
  });
  return (
    <Card title="Project">
      <form
        noValidate
        className="flex flex-wrap items-end gap-2"
        onSubmit={form.handleSubmit(({ name }) => {
          setFailure(undefined);
          rename.mutate(name.trim());
        })}
      >
        <Input
          label="Project name"
          className="min-w-48 flex-1"
          {...form.register('name', { required: 'Name the project' })}
          error={form.formState.errors.name?.message}
        />
        <Button type="submit" variant="secondary" busy={rename.isPending}>
          Rename
        </Button>
      </form>
      {failure ? (
        <div className="mt-3">
          <ErrorState error={new Error(failure)} />
        </div>
      ) : null}
    </Card>
  );
}
