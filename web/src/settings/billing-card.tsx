import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { ErrorState, Loading } from '../components/states';
import { formatNumber } from '../lib/format';

const configQuery = {
  queryKey: ['config'],
  queryFn: () => unwrap(api.GET('/config')),
  staleTime: Infinity,
};

/**
 * This month's usage per category against its cap (amber from 80 %), billing on or off, and the
 * Stripe buttons when payments are on.
 */
export function BillingCard({ projectId }: { projectId: string }) {
  const config = useQuery(configQuery);
  const billingOn = config.data?.features.billing === true;
  const usage = useQuery({
    queryKey: ['project', projectId, 'billing-consumption'],
    queryFn: () =>
      unwrap(
        api.GET('/users/@me/projects/{id}/billing-consumption', {
          params: { path: { id: projectId } },
        }),
      ),
  });
  const open = useMutation({
    mutationFn: async (kind: 'checkout' | 'portal') => {
      const params = { params: { path: { id: projectId } } };
      const session =
        kind === 'checkout'
          ? await unwrap(api.POST('/users/@me/projects/{id}/checkout', params))
          : await unwrap(api.POST('/users/@me/projects/{id}/billing-portal', params));
      window.location.assign(session.url);
    },
  });

  return (
    <Card
      title="Billing"
      actions={
        billingOn && usage.data ? (
          <div className="flex gap-2">
            {usage.data.plan === 'FREE' ? (
              <Button busy={open.isPending} onClick={() => open.mutate('checkout')}>
                Upgrade
              </Button>
            ) : (
              <Button
                variant="secondary"
                busy={open.isPending}
                onClick={() => open.mutate('portal')}
              >
                Manage billing
              </Button>
            )}
          </div>
        ) : null
      }
    >
      {open.isError ? <ErrorState error={open.error} /> : null}
      {config.isPending ? (
        <Loading />
      ) : config.isError ? (
        <ErrorState error={config.error} />
      ) : usage.isPending ? (
        <Loading />
      ) : usage.isError ? (
        <ErrorState error={usage.error} />
      ) : (
        <>
          <p className="mb-3 text-sm text-muted">
            {billingOn
              ? `Plan ${usage.data.plan.toLowerCase()} · this month since `
              : 'Payments are off on this installation (no STRIPE_SECRET_KEY); the caps still apply. This month since '}
            {new Date(usage.data.period.start).toLocaleDateString()}
          </p>
          <ul className="flex flex-col gap-3">
            {Object.entries(usage.data.categories).map(([category, c]) => {
              const share = c.cap ? Math.min(1, c.used / c.cap) : 0;
              return (
                <li key={category} className="text-sm">
                  <div className="mb-1 flex justify-between gap-2">
                    <span className="capitalize">{category}</span>
                    <span className="text-muted">
                      {formatNumber(c.used)}
                      {c.cap === null ? ' (no cap)' : ` of ${formatNumber(c.cap)}`}
                    </span>
                  </div>
                  {c.cap === null ? null : (
                    <div
                      className="h-2 overflow-hidden rounded bg-surface"
                      role="img"
                      aria-label={`${Math.round(share * 100)} % of the ${category} cap used`}
                    >
                      <div
                        className={`h-full ${share >= 0.8 ? 'bg-warn' : 'bg-accent'}`}
                        style={{ width: `${share * 100}%` }}
                      />
                    </div>
                  )}
                  {c.warning ? (
                    <p className="mt-1 text-xs text-warn">
                      Reached 80 % of the cap on {new Date(c.warning.at).toLocaleDateString()}.
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </Card>
  );
}
