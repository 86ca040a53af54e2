import { Button } from '../components/button';
import { CopyButton } from '../components/copy-button';
import { Dialog } from '../components/dialog';

/** A signing secret, shown this once (after a create or a rotation). */
export function SecretDialog({
  secret,
  title,
  onClose,
}: {
  secret: string | undefined;
  title: string;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={secret !== undefined}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={title}
      description="Copy the signing secret now: it will not be shown again. Verify each request's webhook-signature with it (Standard Webhooks)."
    >
      {secret ? (
        <div className="flex flex-col gap-3">
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <code
              data-testid="signing-secret"
              className="min-w-0 flex-1 rounded bg-surface px-2 py-1.5 text-xs break-all"
            >
              {secret}
            </code>
            <CopyButton value={secret} className="self-start sm:self-auto" />
          </div>
          <Button className="self-end" onClick={onClose}>
            I have saved it
          </Button>
        </div>
      ) : null}
    </Dialog>
  );
}
