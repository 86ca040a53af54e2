import { useState, type ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { Input } from './input';

interface ConfirmProps {
  confirmLabel: string;
  typed?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

// Mounted with the dialog's content, so the typed text starts empty at every opening.
function ConfirmForm({ confirmLabel, typed, busy, onConfirm, onCancel }: ConfirmProps) {
  const [text, setText] = useState('');
  const ready = !typed || text === typed;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) onConfirm();
      }}
      className="flex flex-col gap-4"
    >
      {typed ? (
        <Input
          label={`Type "${typed}" to confirm`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoComplete="off"
        />
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" disabled={!ready} busy={busy}>
          {confirmLabel}
        </Button>
      </div>
    </form>
  );
}

/** A destructive action behind a confirmation; with `typed`, the user types that word first. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  ...form
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  typed?: string;
  busy?: boolean;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description}>
      <ConfirmForm {...form} onCancel={() => onOpenChange(false)} />
    </Dialog>
  );
}
