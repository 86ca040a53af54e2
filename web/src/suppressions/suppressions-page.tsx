import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { isAdmin, useProject, useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { ConfirmDialog } from '../components/confirm-dialog';
import { EmptyState } from '../components/empty-state';
import { PageHeader } from '../components/page-header';
import { Select } from '../components/select';
import { ErrorState, Loading } from '../components/states';
import { useToast } from '../components/toast';
import { formatNumber } from '../lib/format';
import {
  isReason,
  REASON_LABELS,
  type Suppression,
  type SuppressionReason,
} from './suppression-labels';
import { SuppressionsTable } from './suppressions-table';
import { SuppressionsTabs } from './suppressions-tabs';
import { useLiftSuppression, useSuppressions } from './use-suppressions';

const REASON_OPTIONS = [
  { value: '', label: 'All reasons' },
  ...Object.entries(REASON_LABELS).map(([value, label]) => ({ value, label })),
];

// Inline in a sentence: underlined, not told apart by colour alone.
const linkClass = 'text-accent underline underline-offset-2';

/**
 * The addresses no mail goes to (hard bounces, complaints, repeated soft bounces), each with
 * its evidence; admins lift an entry to send to the address again.
 */
export function SuppressionsPage() {
  const projectId = useProjectId();
  const { project } = useProject();
  const admin = isAdmin(project?.role);
  const toast = useToast();
  const [reason, setReason] = useState<SuppressionReason | ''>('');
  const [lifting, setLifting] = useState<Suppression>();
  const list = useSuppressions(projectId, reason);
  const lift = useLiftSuppression(projectId);
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  const total = list.data?.pages[0]?.total;
  const filtered = reason !== '';

  return (
    <>
      <PageHeader
        title="Suppressions"
        description={
          total === undefined || (total === 0 && !filtered)
            ? 'Addresses no mail is sent to: hard bounces, spam complaints and repeated soft bounces.'
            : `${formatNumber(total)} ${filtered ? 'matching' : 'suppressed'}, newest first`
        }
        actions={
          <Link
            to="/settings"
            hash="bounce-policy"
            className="inline-flex min-h-9 items-center rounded-md border border-line bg-panel px-3.5 py-1.5 text-sm font-medium text-fg hover:bg-surface"
          >
            Bounce policy
          </Link>
        }
      />
      <SuppressionsTabs />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <Select
          label="Reason"
          value={reason}
          onChange={(e) => setReason(isReason(e.target.value) ? e.target.value : '')}
          options={REASON_OPTIONS}
        />
      </div>
      {list.isPending ? (
        <Loading label="Loading suppressions" />
      ) : list.isError ? (
        <ErrorState error={list.error} />
      ) : rows.length === 0 ? (
        <EmptyState
          title={filtered ? 'No address suppressed for this reason' : 'No suppressed addresses'}
        >
          {filtered ? (
            'Try another reason.'
          ) : (
            <>
              An address lands here when its mail hard-bounces, when its owner reports a message as
              spam, or when it soft-bounces too often (see the{' '}
              <Link to="/settings" hash="bounce-policy" className={linkClass}>
                bounce policy
              </Link>
              ). Nothing is sent to a suppressed address, which protects your sending reputation.
            </>
          )}
        </EmptyState>
      ) : (
        <>
          <SuppressionsTable rows={rows} onLift={admin ? setLifting : undefined} />
          {list.hasNextPage ? (
            <div className="mt-4 flex justify-center">
              <Button
                variant="secondary"
                busy={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
              >
                Load more
              </Button>
            </div>
          ) : null}
        </>
      )}
      <ConfirmDialog
        open={lifting !== undefined}
        onOpenChange={(open) => (open ? undefined : setLifting(undefined))}
        title={`Lift the suppression of ${lifting?.email ?? 'this address'}?`}
        description={
          <>
            Mail will go to this address again: transactional sends, campaigns and workflows. If it
            bounces or complains again it is suppressed again. A contact that a bounce or complaint
            unsubscribed stays unsubscribed.
          </>
        }
        confirmLabel="Lift suppression"
        busy={lift.isPending}
        onConfirm={() => {
          if (!lifting) return;
          lift.mutate(lifting.email, {
            onSuccess: (lifted) => {
              setLifting(undefined);
              toast(`${lifted.email} can receive mail again`);
            },
            onError: (error) => {
              setLifting(undefined);
              toast(error.message, 'error');
            },
          });
        }}
      />
    </>
  );
}
