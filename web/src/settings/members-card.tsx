import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { api, unwrap } from '../api/client';
import { meQuery } from '../api/session';
import type { ResponseOf } from '../api/types';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { Input } from '../components/input';
import { Select } from '../components/select';
import { ErrorState, Loading } from '../components/states';
import { useToast } from '../components/toast';
import { applyApiError } from '../lib/form-errors';

type Member = ResponseOf<'/projects/{id}/members', 'get'>[number];
type Role = Member['role'];
const ROLES = [
  { value: 'MEMBER', label: 'Member' },
  { value: 'ADMIN', label: 'Admin' },
  { value: 'OWNER', label: 'Owner' },
] as const;

export function MembersCard({ projectId, canManage }: { projectId: string; canManage: boolean }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const me = useQuery(meQuery);
  const [failure, setFailure] = useState<string>();
  const key = ['project', projectId, 'members'];
  const members = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(api.GET('/projects/{id}/members', { params: { path: { id: projectId } } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const onError = (error: Error) => toast(error.message, 'error');
  const form = useForm<{ email: string; role: Role }>({
    defaultValues: { email: '', role: 'MEMBER' },
  });
  const invite = useMutation({
    mutationFn: (body: { email: string; role: Role }) =>
      unwrap(api.POST('/projects/{id}/members', { params: { path: { id: projectId } }, body })),
    onSuccess: async (added) => {
      form.reset();
      toast(`${added.email} added`);
      await refresh();
    },
    onError: (error) => setFailure(applyApiError(error, form.setError, ['email', 'role'])),
  });
  const changeRole = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      unwrap(
        api.PATCH('/projects/{id}/members/{userId}', {
          params: { path: { id: projectId, userId } },
          body: { role },
        }),
      ),
    onSuccess: refresh,
    onError,
  });
  const remove = useMutation({
    mutationFn: (userId: string) =>
      unwrap(
        api.DELETE('/projects/{id}/members/{userId}', {
          params: { path: { id: projectId, userId } },
        }),
      ),
    onSuccess: refresh,
    onError,
  });

  return (
    <Card title="Members">
      {members.isPending ? (
        <Loading />
      ) : members.isError ? (
        <ErrorState error={members.error} />
      ) : (
        <ul className="divide-y divide-line">
          {members.data.map((m) => (
            <li key={m.userId} className="flex flex-wrap items-center gap-3 py-2 text-sm">
              <span className="min-w-0 flex-1 break-all">
                {m.email}
                {m.userId === me.data?.id ? <span className="text-muted"> (you)</span> : null}
              </span>
              {canManage && m.userId !== me.data?.id ? (
                <>
                  <label className="sr-only" htmlFor={`role-${m.userId}`}>
                    Role of {m.email}
                  </label>
                  <select
                    id={`role-${m.userId}`}
                    value={m.role}
                    onChange={(e) =>
                      changeRole.mutate({ userId: m.userId, role: e.target.value as Role })
                    }
                    className="min-h-8 rounded-md border border-line bg-panel px-2 text-sm"
                  >
                    {ROLES.map((r) => (
                      <option key={r.value} value={r.value}>
                        {r.label}
                      </option>
                    ))}
                  </select>
                  <Button
                    variant="ghost"
                    aria-label={`Remove ${m.email}`}
                    onClick={() => remove.mutate(m.userId)}
                  >
                    Remove
                  </Button>
                </>
              ) : (
                <span className="text-muted">{m.role.toLowerCase()}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {canManage ? (
        <form
          noValidate
          className="mt-4 flex flex-wrap items-end gap-2 border-t border-line pt-4"
          onSubmit={form.handleSubmit((values) => {
            setFailure(undefined);
            invite.mutate(values);
          })}
        >
          <Input
            label="Add by email"
            type="email"
            className="min-w-48 flex-1"
            {...form.register('email', { required: 'Enter an email address' })}
            error={form.formState.errors.email?.message}
          />
          <Select label="Role" options={ROLES} {...form.register('role')} />
          <Button type="submit" variant="secondary" busy={invite.isPending}>
            Add member
          </Button>
        </form>
      ) : null}
      {failure ? (
        <div className="mt-3">
          <ErrorState error={new Error(failure)} />
        </div>
      ) : null}
    </Card>
  );
}
