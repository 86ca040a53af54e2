import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { meQuery } from '../api/session';
import { Button } from '../components/button';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useToast } from '../components/toast';

/** What "send me a test" sends: the editor's current content, saved or not. */
export interface TestContent {
  subject: string;
  body: string;
  from: string;
  fromName: string;
  replyTo: string;
}

/**
 * Send me a test, duplicate, delete. The test goes out as a one-off transactional send of what is
 * in the editor, so it reaches the user whatever their own subscription state.
 */
export function TemplateActions({
  template,
  content,
}: {
  template: { id: string; name: string };
  content: () => TestContent;
}) {
  const me = useQuery(meQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [deleting, setDeleting] = useState(false);
  const onError = (error: Error) => toast(error.message, 'error');
  const invalidateList = () =>
    queryClient.invalidateQueries({ predicate: (q) => q.queryKey[2] === 'templates' });

  const sendTest = useMutation({
    mutationFn: (to: string) => {
      const { subject, body, from, fromName, replyTo } = content();
      const sender = fromName ? { name: fromName, email: from } : from;
      return unwrap(
        api.POST('/v1/send', {
          body: { to, subject, body, from: sender, ...(replyTo ? { replyTo } : {}) },
        }),
      );
    },
    onSuccess: (result) => {
      const who = me.data?.email ?? 'you';
      if (result.data.emails[0]?.status === 'QUEUED') toast(`Test sent to ${who}`);
      else toast(`Not sent: ${who} is on the project's suppression list`, 'error');
    },
    onError,
  });
  const duplicate = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/templates/{id}/duplicate', { params: { path: { id: template.id } } })),
    onSuccess: async (copy) => {
      await invalidateList();
      toast('Template duplicated');
      await navigate({ to: '/templates/$templateId', params: { templateId: copy.id } });
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/templates/{id}', { params: { path: { id: template.id } } })),
    onSuccess: async () => {
      await invalidateList();
      toast('Template deleted');
      await navigate({ to: '/templates' });
    },
    onError,
  });

  return (
    <>
      <Button
        variant="secondary"
        disabled={!me.data}
        busy={sendTest.isPending}
        onClick={() => me.data && sendTest.mutate(me.data.email)}
      >
        Send me a test
      </Button>
      <Button variant="secondary" busy={duplicate.isPending} onClick={() => duplicate.mutate()}>
        Duplicate
      </Button>
      <Button variant="ghost" onClick={() => setDeleting(true)}>
        Delete
      </Button>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete ${template.name}?`}
        description="Campaigns and workflow steps that use it stop working. This cannot be undone."
        confirmLabel="Delete template"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
