import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ErrorState, Loading } from '../components/states';
import { useToast } from '../components/toast';
import { formatDate } from '../lib/format';
import { describeUserAgent } from './user-agent';

const sessionsQuery = queryOptions({
  queryKey: ['sessions'],
  queryFn: () => unwrap(api.GET('/users/@me/sessions')),
  // Sessions start and end on other devices: fetched afresh each time the page opens.
  staleTime: 0,
});

/**
 * Where the user is logged in. Ending a session works at once (the API checks the session on
 * every request), so a lost laptop is logged out from here.
 */
export function SessionsCard() {
  const sessions = useQuery(sessionsQuery);
  const queryClient = useQueryClient();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey });
  const onError = (error: Error) => toast(error.message, 'error');

  const revoke = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/users/@me/sessions/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      toast('That session is logged out');
      await refresh();
    },
    onError,
  });
  const revokeOthers = useMutation({
    mutationFn: () => unwrap(api.POST('/users/@me/sessions/revoke-others')),
    onSuccess: async ({ revoked }) => {
      setConfirming(false);
      toast(
        revoked === 1 ? 'Logged out of 1 other session' : `Logged out of ${revoked} other sessions`,
      );
      await refresh();
    },
    onError,
  });

  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  const everywhereElse =
    others > 0 ? (
      <Button variant="secondary" onClick={() => setConfirming(true)}>
        Log out everywhere else
      </Button>
    ) : undefined;

  return (
    <Card title="Active sessions" actions={everywhereElse}>
      {sessions.isPending ? (
        <Loading label="Loading sessions" />
      ) : sessions.isError ? (
        <ErrorState error={sessions.error} />
      ) : (
        <>
          <p className="mb-2 text-sm text-muted">
            {others === 0
              ? 'You are logged in on this device only.'
              : 'Log out a device you do not recognise; its next request needs a new login.'}
          </p>
          <ul className="divide-y divide-line" aria-label="Active sessions">
            {[...sessions.data]
              .sort((a, b) => Number(b.current) - Number(a.current))
              .map((s) => {
                const device = describeUserAgent(s.userAgent);
                return (
                  <li
                    key={s.id}
                    className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3 text-sm"
                  >
                    <div className="min-w-0 flex-1 basis-56">
                      <p className="font-medium break-words" title={s.userAgent ?? undefined}>
                        {device}
                        {s.current ? (
                          <span className="ml-2 rounded-full bg-accent/15 px-2 py-0.5 text-xs text-accent">
                            this device
                          </span>
                        ) : null}
                      </p>
                      <p className="text-xs text-muted">
                        Last seen {formatDate(s.lastSeenAt)} · signed in {formatDate(s.createdAt)}
                      </p>
                    </div>
                    {s.current ? null : (
                      <Button
                        variant="secondary"
                        aria-label={`Log out ${device}, last seen ${formatDate(s.lastSeenAt)}`}
                        busy={revoke.isPending && revoke.variables === s.id}
                        onClick={() => revoke.mutate(s.id)}
                      >
                        Log out
                      </Button>
                    )}
                  </li>
                );
              })}
          </ul>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Log out everywhere else?"
        description={`Ends ${others === 1 ? 'the other session' : `the ${others} other sessions`} of your account at once. This device stays logged in.`}
        confirmLabel="Log out everywhere else"
        busy={revokeOthers.isPending}
        onConfirm={() => revokeOthers.mutate()}
      />
    </Card>
  );
}
