import { useBlocker } from '@tanstack/react-router';
import { Button } from './button';
import { Dialog } from './dialog';

/**
 * Asks before leaving a page with unsaved changes: a dialog for a move inside the app, the
 * browser's own prompt for a reload or a closed tab.
 */
export function UnsavedChangesGuard({ dirty }: { dirty: boolean }) {
  const blocker = useBlocker({
    shouldBlockFn: () => dirty,
    enableBeforeUnload: () => dirty,
    withResolver: true,
  });
  const open = blocker.status === 'blocked';
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? undefined : blocker.reset?.())}
      title="Leave without saving?"
      description="Your changes on this page are not saved. Leaving drops them."
    >
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => blocker.reset?.()}>
          Stay on this page
        </Button>
        <Button variant="danger" onClick={() => blocker.proceed?.()}>
          Leave and drop changes
        </Button>
      </div>
    </Dialog>
  );
}
