import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { ErrorState } from '../components/states';
import { useToast } from '../components/toast';
import { formatDate } from '../lib/format';

type Domain = ResponseOf<'/domains/project/{projectId}', 'get'>[number];

export function DomainCard({ domain, queryKey }: { domain: Domain; queryKey: QueryKey }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [removing, setRemoving] = useState(false);
  const verify = useMutation({
    mutationFn: () =>
      unwrap(api.GET('/domains/{id}/verify', { params: { path: { id: domain.id } } })),
    onSuccess: async (checked) => {
      toast(
        checked.verified
          ? `${checked.domain} is verified`
          : `${checked.domain}: records not found yet`,
        checked.verified ? 'ok' : 'error',
      );
      await queryClient.invalidateQueries({ queryKey });
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/domains/{id}', { params: { path: { id: domain.id } } })),
    onSuccess: async () => {
      setRemoving(false);
      await queryClient.invalidateQueries({ queryKey });
    },
  });

  return (
    <Card
      title={domain.domain}
      actions={
        <div className="flex flex-wrap items-center gap-2">
          <span
            className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${domain.verified ? 'bg-ok/15 text-ok' : 'bg-warn/15 text-warn'}`}
          >
            {domain.verified ? 'Verified' : domain.status.toLowerCase()}
          </span>
          <Button variant="secondary" busy={verify.isPending} onClick={() => verify.mutate()}>
            Verify now
          </Button>
          <Button variant="ghost" onClick={() => setRemoving(true)}>
            Remove
          </Button>
        </div>
      }
    >
      {verify.isError ? <ErrorState error={verify.error} /> : null}
      {domain.lastError && !domain.verified ? (
        <p className="mb-3 text-sm text-warn">{domain.lastError}</p>
      ) : null}
      <ul className="flex flex-col gap-3">
        {domain.records.map((r) => (
          <li
            key={`${r.type}-${r.name}-${r.purpose}`}
            className="rounded-md border border-line p-3 text-sm"
          >
            <div className="mb-2 flex flex-wrap items-center gap-2">
              <span className="rounded bg-surface px-1.5 py-0.5 font-mono text-xs">{r.type}</span>
              <span className="font-medium">{r.purpose}</span>
              {r.required ? null : <span className="text-xs text-muted">(optional)</span>}
              <span className={`ml-auto text-xs ${r.verified ? 'text-ok' : 'text-muted'}`}>
                {r.verified ? '✓ found' : 'not found yet'}
              </span>
            </div>
            <div className="grid gap-2 sm:grid-cols-[5rem_1fr_auto] sm:items-center">
              <span className="text-xs text-muted">Name</span>
              <code className="min-w-0 break-all">{r.name}</code>
              <CopyButton value={r.name} label="Copy name" className="justify-self-start" />
              <span className="text-xs text-muted">Value</span>
              <code className="min-w-0 break-all">{r.value}</code>
              <CopyButton value={r.value} label="Copy value" className="justify-self-start" />
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xs text-muted">Last checked {formatDate(domain.lastCheckedAt)}</p>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={`Remove ${domain.domain}?`}
        description="Templates and sends from this domain stop working until it is added and verified again."
        confirmLabel="Remove domain"
        typed={domain.domain}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </Card>
  );
}
