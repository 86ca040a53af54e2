import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { ConfirmDialog } from '../components/confirm-dialog';
import { Dialog } from '../components/dialog';
import { Input } from '../components/input';
import { ErrorState } from '../components/states';
import { useToast } from '../components/toast';
import { campaignsKey, isLive, type Campaign } from './campaign-queries';
import { ScheduleDialog } from './schedule-dialog';

type Open = 'send' | 'schedule' | 'test' | 'cancel' | 'delete' | undefined;

/** Send now, schedule, test, cancel, delete: what the campaign's state allows. */
export function CampaignActions({
  campaign,
  dirty,
  reachable,
}: {
  campaign: Campaign;
  dirty: boolean;
  reachable: number | undefined;
}) {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [open, setOpen] = useState<Open>();
  const [testTo, setTestTo] = useState('');
  const path = { params: { path: { id: campaign.id } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: campaignsKey(projectId) });
  const toStats = () =>
    navigate({ to: '/campaigns/$campaignId/stats', params: { campaignId: campaign.id } });

  const send = useMutation({
    mutationFn: (scheduledFor?: Date) =>
      unwrap(
        api.POST('/campaigns/{id}/send', {
          ...path,
          body: scheduledFor ? { scheduledFor: scheduledFor.toISOString() } : {},
        }),
      ),
    onSuccess: async ({ data }) => {
      setOpen(undefined);
      await refresh();
      toast(data.status === 'SCHEDULED' ? 'Campaign scheduled' : 'Sending');
      await toStats();
    },
  });
  const test = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/campaigns/{id}/test', { ...path, body: { email: testTo } })),
    onSuccess: ({ data }) => {
      setOpen(undefined);
      toast(
        data.status === 'SUPPRESSED'
          ? `${data.email} is suppressed: nothing sent`
          : `Test sent to ${data.email}`,
        data.status === 'SUPPRESSED' ? 'error' : 'ok',
      );
    },
  });
  const cancel = useMutation({
    mutationFn: () => unwrap(api.POST('/campaigns/{id}/cancel', path)),
    onSuccess: async () => {
      setOpen(undefined);
      await refresh();
      toast('Campaign cancelled');
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/campaigns/{id}', path)),
    onSuccess: async () => {
      setOpen(undefined);
      toast('Campaign deleted');
      await navigate({ to: '/campaigns' });
      await refresh();
    },
  });
  const draft = campaign.status === 'DRAFT';
  const people =
    reachable === undefined ? 'its audience' : `${reachable.toLocaleString()} contacts`;

  return (
    <>
      {draft ? (
        <>
          <Button variant="secondary" disabled={dirty} onClick={() => setOpen('test')}>
            Send a test
          </Button>
          <Button variant="secondary" disabled={dirty} onClick={() => setOpen('schedule')}>
            Schedule
          </Button>
          <Button disabled={dirty} onClick={() => setOpen('send')}>
            Send now
          </Button>
        </>
      ) : (
        <Link
          to="/campaigns/$campaignId/stats"
          params={{ campaignId: campaign.id }}
          className="inline-flex min-h-9 items-center rounded-md border border-line bg-panel px-3.5 text-sm font-medium hover:bg-surface"
        >
          Stats
        </Link>
      )}
      {isLive(campaign.status) ? (
        <Button variant="danger" onClick={() => setOpen('cancel')}>
          Cancel send
        </Button>
      ) : (
        <Button variant="danger" onClick={() => setOpen('delete')}>
          Delete
        </Button>
      )}
      <ConfirmDialog
        open={open === 'send'}
        onOpenChange={(o) => setOpen(o ? 'send' : undefined)}
        title={`Send to ${people} now?`}
        description={
          send.isError ? (
            <span className="mt-2 block">
              <ErrorState error={send.error} />
            </span>
          ) : (
            `“${campaign.subject}” goes to ${people}. This cannot be undone once mail is out.`
          )
        }
        confirmLabel="Send now"
        busy={send.isPending}
        onConfirm={() => send.mutate(undefined)}
      />
      <ScheduleDialog
        open={open === 'schedule'}
        onOpenChange={(o) => setOpen(o ? 'schedule' : undefined)}
        busy={send.isPending}
        error={send.error?.message}
        onSchedule={(at) => send.mutate(at)}
      />
      <Dialog
        open={open === 'test'}
        onOpenChange={(o) => setOpen(o ? 'test' : undefined)}
        title="Send a test"
        description="One email, [TEST] before the subject, not counted in the stats."
      >
        <form
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            test.mutate();
          }}
        >
          <Input
            label="Send to"
            type="email"
            value={testTo}
            onChange={(e) => setTestTo(e.target.value)}
            error={test.error?.message}
          />
          <div className="flex justify-end">
            <Button type="submit" busy={test.isPending} disabled={!testTo}>
              Send test
            </Button>
          </div>
        </form>
      </Dialog>
      <ConfirmDialog
        open={open === 'cancel'}
        onOpenChange={(o) => setOpen(o ? 'cancel' : undefined)}
        title="Cancel this send?"
        description="Emails not yet handed to the mail server are never sent."
        confirmLabel="Cancel send"
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
      />
      <ConfirmDialog
        open={open === 'delete'}
        onOpenChange={(o) => setOpen(o ? 'delete' : undefined)}
        title={`Delete ${campaign.name}?`}
        description={
          remove.isError ? (
            <span className="mt-2 block">
              <ErrorState error={remove.error} />
            </span>
          ) : (
            'Its emails and their history stay in the activity feed.'
          )
        }
        confirmLabel="Delete campaign"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
