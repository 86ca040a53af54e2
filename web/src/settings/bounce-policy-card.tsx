import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, unwrap } from '../api/client';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { Input } from '../components/input';
import { ErrorState, Loading } from '../components/states';
import { useToast } from '../components/toast';
import { applyApiError } from '../lib/form-errors';

// The API's limits (PUT /bounce-policy): softBounceLimit 1-100, softBounceWindowDays 1-365.
const LIMIT_MAX = 100;
const WINDOW_MAX = 365;

const wholeNumber = (max: number) => {
  const message = `Enter a whole number from 1 to ${max}`;
  return z.number({ error: message }).int(message).min(1, message).max(max, message);
};

const schema = z.object({
  suppressHardBounces: z.boolean(),
  softBounceLimit: wholeNumber(LIMIT_MAX),
  softBounceWindowDays: wholeNumber(WINDOW_MAX),
});
type Values = z.infer<typeof schema>;

type Policy = Values;

/** The policy in words, for members (who cannot change it). */
function PolicySummary({ policy }: { policy: Policy }) {
  const days = policy.softBounceWindowDays === 1 ? 'day' : 'days';
  const bounces = policy.softBounceLimit === 1 ? 'soft bounce' : 'soft bounces';
  return (
    <>
      <dl className="grid gap-x-4 gap-y-0.5 text-sm sm:grid-cols-[10rem_1fr] sm:gap-y-2">
        <dt className="text-muted">Hard bounces</dt>
        <dd className="mb-2 font-medium sm:mb-0">
          {policy.suppressHardBounces
            ? 'Suppressed at the first one'
            : 'Recorded only; the address keeps receiving mail'}
        </dd>
        <dt className="text-muted">Soft bounces</dt>
        <dd className="font-medium">
          Suppressed after {policy.softBounceLimit} {bounces} within {policy.softBounceWindowDays}{' '}
          {days}
        </dd>
      </dl>
      <p className="mt-3 text-xs text-muted">Only admins and owners change the policy.</p>
    </>
  );
}

/**
 * What puts an address on the suppression list: a first hard bounce (or not), and how many soft
 * bounces within how many days. Members see it; admins change it.
 */
export function BouncePolicyCard({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [failure, setFailure] = useState<string>();
  const key = ['project', projectId, 'bounce-policy'];
  const policy = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/bounce-policy')),
  });
  const form = useForm<Values>({ resolver: zodResolver(schema), values: policy.data });
  const save = useMutation({
    mutationFn: (body: Values) => unwrap(api.PUT('/bounce-policy', { body })),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
      toast('Bounce policy saved');
    },
    onError: (error) =>
      setFailure(
        applyApiError(error, form.setError, [
          'suppressHardBounces',
          'softBounceLimit',
          'softBounceWindowDays',
        ]),
      ),
  });
  const errors = form.formState.errors;
  // Opened at #bounce-policy (the suppression list links here): the router scrolled to the card
  // while it was loading; once its form is drawn, bring the whole of it into view.
  const hash = useLocation({ select: (location) => location.hash });
  const anchor = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (hash === 'bounce-policy' && policy.isSuccess) anchor.current?.scrollIntoView();
  }, [hash, policy.isSuccess]);

  return (
    <div id="bounce-policy" ref={anchor} className="scroll-mt-6">
      <Card title="Bounce policy">
        <p className="mb-4 text-sm text-muted">
          What puts an address on the{' '}
          <Link to="/suppressions" className="text-accent underline underline-offset-2">
            suppression list
          </Link>
          . A spam complaint always does; nothing is sent to a suppressed address.
        </p>
        {policy.isPending ? (
          <Loading />
        ) : policy.isError ? (
          <ErrorState error={policy.error} />
        ) : canEdit ? (
          <form
            noValidate
            aria-label="Bounce policy"
            className="flex flex-col gap-4"
            onSubmit={form.handleSubmit((values) => {
              setFailure(undefined);
              save.mutate(values);
            })}
          >
            <label className="flex items-start gap-3 text-sm">
              <input
                type="checkbox"
                className="mt-0.5 size-4 shrink-0 cursor-pointer accent-accent"
                {...form.register('suppressHardBounces')}
              />
              <span>
                <span className="font-medium">Suppress an address at its first hard bounce</span>
                <span className="block text-xs text-muted">
                  Off: a hard bounce is only recorded, and the address keeps receiving mail.
                </span>
              </span>
            </label>
            <div className="grid max-w-xl gap-3 sm:grid-cols-2">
              <Input
                label="Suppress after this many soft bounces"
                type="number"
                inputMode="numeric"
                min={1}
                max={LIMIT_MAX}
                step={1}
                hint={`1 to ${LIMIT_MAX} soft-bounced emails`}
                {...form.register('softBounceLimit', { valueAsNumber: true })}
                error={errors.softBounceLimit?.message}
              />
              <Input
                label="Within this many days"
                type="number"
                inputMode="numeric"
                min={1}
                max={WINDOW_MAX}
                step={1}
                hint={`1 to ${WINDOW_MAX} days`}
                {...form.register('softBounceWindowDays', { valueAsNumber: true })}
                error={errors.softBounceWindowDays?.message}
              />
            </div>
            <Button type="submit" variant="secondary" busy={save.isPending} className="self-start">
              Save policy
            </Button>
          </form>
        ) : (
          <PolicySummary policy={policy.data} />
        )}
        {failure ? (
          <div className="mt-3">
            <ErrorState error={new Error(failure)} />
          </div>
        ) : null}
      </Card>
    </div>
  );
}
