import { ConfirmDialog } from '../components/confirm-dialog';
import type { ActionTarget, ProjectAction } from './use-project-action';

// What each action does, as the API's reset and delete do it (db/sql/projects.sql.ts).
const WHAT_IT_DOES: Record<ProjectAction, string> = {
  reset:
    'Deletes its contacts, events, emails, campaigns, workflows, segments, suppressions and uploads. The project keeps its name, API keys, members, domains and templates. This cannot be undone.',
  delete:
    'Deletes the project and everything in it: contacts, templates, domains, campaigns, workflows and its API keys, which stop working at once. This cannot be undone.',
};

/** The confirmation of a reset or a delete: the button stays disabled until the name is typed. */
export function ProjectActionDialog({
  action,
  project,
  busy,
  onCancel,
  onConfirm,
}: {
  action: ProjectAction | undefined;
  project: ActionTarget | undefined;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const name = project?.name ?? '';
  return (
    <ConfirmDialog
      open={action !== undefined && project !== undefined}
      onOpenChange={(open) => (open ? undefined : onCancel())}
      title={action === 'delete' ? `Delete ${name}?` : `Reset ${name}?`}
      description={action ? WHAT_IT_DOES[action] : ''}
      confirmLabel={action === 'delete' ? 'Delete project' : 'Reset project'}
      typed={name}
      busy={busy}
      onConfirm={onConfirm}
    />
  );
}
