import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { projectsQuery } from '../api/session';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { Dialog } from '../components/dialog';

interface Keys {
  publicKey: string;
  secretKey: string;
}

function KeyRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
      <span className="w-24 shrink-0 text-sm font-medium">{label}</span>
      <code className="min-w-0 flex-1 rounded bg-surface px-2 py-1 text-xs break-all">{value}</code>
      <CopyButton value={value} className="self-start sm:self-auto" />
    </div>
  );
}

/**
 * The public key, the masked secret key and, for admins, rotation: both keys change at once, the
 * old ones stop working, and the new secret key is shown this once.
 */
export function KeysCard({
  project,
  canRotate,
}: {
  project: { id: string } & Keys;
  canRotate: boolean;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [fresh, setFresh] = useState<Keys>();
  const rotate = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/users/@me/projects/{id}/regenerate-keys', {
          params: { path: { id: project.id } },
        }),
      ),
    onSuccess: async (rotated) => {
      setConfirming(false);
      setFresh({ publicKey: rotated.publicKey, secretKey: rotated.secretKey });
      await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey });
    },
  });
  return (
    <Card
      title="API keys"
      actions={
        canRotate ? (
          <Button variant="secondary" onClick={() => setConfirming(true)}>
            Rotate keys
          </Button>
        ) : null
      }
    >
      <div className="flex flex-col gap-3">
        <KeyRow label="Public key" value={project.publicKey} />
        <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
          <span className="w-24 shrink-0 text-sm font-medium">Secret key</span>
          <code className="min-w-0 flex-1 rounded bg-surface px-2 py-1 text-xs break-all">
            {project.secretKey}
          </code>
        </div>
        <p className="text-xs text-muted">
          The secret key is shown only when it is made. The public key may ship in browser code
          (POST /v1/track and /v1/subscribe only).
        </p>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Rotate both keys?"
        description="New public and secret keys replace the current ones at once; the old keys stop working immediately."
        confirmLabel="Rotate keys"
        typed="rotate"
        busy={rotate.isPending}
        onConfirm={() => rotate.mutate()}
      />
      <Dialog
        open={Boolean(fresh)}
        onOpenChange={(open) => (open ? undefined : setFresh(undefined))}
        title="Your new keys"
        description="Copy the secret key now: it will not be shown again."
      >
        {fresh ? (
          <div className="flex flex-col gap-3">
            <KeyRow label="Public key" value={fresh.publicKey} />
            <KeyRow label="Secret key" value={fresh.secretKey} />
            <Button className="self-end" onClick={() => setFresh(undefined)}>
              I have saved it
            </Button>
          </div>
        ) : null}
      </Dialog>
    </Card>
  );
}
