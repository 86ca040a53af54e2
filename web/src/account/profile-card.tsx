import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api, unwrap } from '../api/client';
import { meQuery } from '../api/session';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { ErrorState, Loading } from '../components/states';
import { useToast } from '../components/toast';
import { formatDate } from '../lib/format';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[10rem_1fr] sm:items-baseline sm:gap-6">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/**
 * The signed-in user. The page changes a password through the reset link it emails (which
 * ends every session); the API's POST /users/@me/password, with the current password, has no
 * form here yet.
 */
export function ProfileCard() {
  const me = useQuery(meQuery);
  const toast = useToast();
  const onError = (error: Error) => toast(error.message, 'error');
  const resendVerification = useMutation({
    mutationFn: (email: string) =>
      unwrap(api.POST('/auth/request-verification', { body: { email } })),
    onSuccess: () => toast('Verification email sent: open the link in it'),
    onError,
  });
  const requestPasswordReset = useMutation({
    mutationFn: (email: string) =>
      unwrap(api.POST('/auth/request-password-reset', { body: { email } })),
    onSuccess: () => toast('Password email sent: its link lets you choose a new password'),
    onError,
  });

  if (me.isPending)
    return (
      <Card title="Profile">
        <Loading />
      </Card>
    );
  if (me.isError)
    return (
      <Card title="Profile">
        <ErrorState error={me.error} />
      </Card>
    );
  const user = me.data;
  return (
    <Card title="Profile">
      <dl className="flex flex-col gap-4 text-sm">
        <Row label="Email">
          <span className="font-medium break-all">{user.email}</span>
        </Row>
        {user.name ? <Row label="Name">{user.name}</Row> : null}
        <Row label="Verification">
          {user.emailVerified ? (
            <span className="font-medium text-ok">Verified</span>
          ) : (
            <span className="flex flex-wrap items-center gap-3">
              <span className="font-medium text-warn">Not verified yet</span>
              <Button
                variant="secondary"
                busy={resendVerification.isPending}
                onClick={() => resendVerification.mutate(user.email)}
              >
                Resend verification email
              </Button>
            </span>
          )}
        </Row>
        <Row label="Password">
          <span className="flex flex-col items-start gap-2">
            <span className="text-muted">We email you a link where you choose a new one.</span>
            <Button
              variant="secondary"
              busy={requestPasswordReset.isPending}
              onClick={() => requestPasswordReset.mutate(user.email)}
            >
              Email me a password link
            </Button>
          </span>
        </Row>
        <Row label="Member since">{formatDate(user.createdAt)}</Row>
      </dl>
    </Card>
  );
}
