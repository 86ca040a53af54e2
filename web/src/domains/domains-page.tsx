import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { EmptyState } from '../components/empty-state';
import { Input } from '../components/input';
import { PageHeader } from '../components/page-header';
import { ErrorState, Loading } from '../components/states';
import { useToast } from '../components/toast';
import { applyApiError } from '../lib/form-errors';
import { DomainCard } from './domain-card';

export function DomainsPage() {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [failure, setFailure] = useState<string>();
  const key = ['project', projectId, 'domains'];
  const domains = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(api.GET('/domains/project/{projectId}', { params: { path: { projectId } } })),
  });
  const form = useForm<{ domain: string }>({ defaultValues: { domain: '' } });
  const add = useMutation({
    mutationFn: (domain: string) => unwrap(api.POST('/domains', { body: { domain } })),
    onSuccess: async (added) => {
      form.reset();
      toast(`${added.domain} added: publish its records, then verify`);
      await queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) => setFailure(applyApiError(error, form.setError, ['domain'])),
  });

  return (
    <>
      <PageHeader
        title="Domains"
        description="Mail is sent from addresses on verified domains: publish the records below at your DNS host."
      />
      <form
        className="mb-6 flex flex-wrap items-end gap-2"
        noValidate
        onSubmit={form.handleSubmit(({ domain }) => {
          setFailure(undefined);
          add.mutate(domain.trim());
        })}
      >
        <Input
          label="Domain"
          placeholder="mail.example.com"
          className="w-full max-w-sm"
          {...form.register('domain', { required: 'Enter a domain' })}
          error={form.formState.errors.domain?.message}
        />
        <Button type="submit" busy={add.isPending}>
          Add domain
        </Button>
      </form>
      {failure ? (
        <div className="mb-4">
          <ErrorState error={new Error(failure)} />
        </div>
      ) : null}
      {domains.isPending ? (
        <Loading label="Loading domains" />
      ) : domains.isError ? (
        <ErrorState error={domains.error} />
      ) : domains.data.length === 0 ? (
        <EmptyState title="No domains yet">
          Add the domain you send from; we give you its DKIM and SPF records.
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-6">
          {domains.data.map((d) => (
            <DomainCard key={d.id} domain={d} queryKey={key} />
          ))}
        </div>
      )}
    </>
  );
}
