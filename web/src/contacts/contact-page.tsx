import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { BodyOf } from '../api/types';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { ConfirmDialog } from '../components/confirm-dialog';
import { PageHeader } from '../components/page-header';
import { ErrorState, Loading } from '../components/states';
import { useToast } from '../components/toast';
import { formatDate } from '../lib/format';
import { ContactData } from './contact-data';
import { ContactEmails } from './contact-emails';
import { ContactEvents } from './contact-events';
import { SubscriptionCard } from './subscription-card';

export type ContactPatch = BodyOf<'/contacts/{id}', 'patch'>;

export function ContactPage() {
  const { contactId } = useParams({ from: '/app/contacts/$contactId' });
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [deleting, setDeleting] = useState(false);
  const key = ['project', projectId, 'contact', contactId];
  const contact = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/contacts/{id}', { params: { path: { id: contactId } } })),
  });
  const update = useMutation({
    mutationFn: (body: ContactPatch) =>
      unwrap(api.PATCH('/contacts/{id}', { params: { path: { id: contactId } }, body })),
    onSuccess: (data) => {
      queryClient.setQueryData(key, data);
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[2] === 'contacts' });
      toast('Contact saved');
    },
    onError: (error) => toast(error.message, 'error'),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/contacts/{id}', { params: { path: { id: contactId } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[2] === 'contacts' });
      toast('Contact deleted');
      await navigate({ to: '/contacts' });
    },
    onError: (error) => toast(error.message, 'error'),
  });

  if (contact.isPending) return <Loading label="Loading the contact" />;
  if (contact.isError) return <ErrorState error={contact.error} />;
  const c = contact.data;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/contacts" className="text-accent underline">
          ← Contacts
        </Link>
      </p>
      <PageHeader
        title={c.email}
        description={`Added ${formatDate(c.createdAt)} · updated ${formatDate(c.updatedAt)}`}
        actions={
          <Button variant="danger" onClick={() => setDeleting(true)}>
            Delete contact
          </Button>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <div className="flex flex-col gap-6">
          <SubscriptionCard
            contact={c}
            saving={update.isPending}
            onChange={(subscribed) => update.mutate({ subscribed })}
          />
          <ContactData
            data={c.data}
            saving={update.isPending}
            onSave={(data) => update.mutateAsync({ data })}
          />
        </div>
        <div className="flex flex-col gap-6">
          <ContactEmails projectId={projectId} contactId={contactId} />
          <ContactEvents projectId={projectId} contactId={contactId} />
        </div>
      </div>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete this contact?"
        description={`${c.email}, its fields and its events are deleted. This cannot be undone.`}
        confirmLabel="Delete contact"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
