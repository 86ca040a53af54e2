import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { selectProject } from '../api/project-store';
import { projectsQuery } from '../api/session';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useToast } from '../components/toast';

/** Reset (wipe the data) and delete, each behind the project's name typed out. */
export function DangerZone({ project }: { project: { id: string; name: string } }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [action, setAction] = useState<'reset' | 'delete'>();
  const path = { params: { path: { id: project.id } } };
  const run = useMutation({
    mutationFn: async (kind: 'reset' | 'delete') => {
      if (kind === 'reset') await unwrap(api.POST('/users/@me/projects/{id}/reset', path));
      else await unwrap(api.DELETE('/users/@me/projects/{id}', path));
      return kind;
    },
    onSuccess: async (kind) => {
      setAction(undefined);
      if (kind === 'delete') selectProject(null);
      await queryClient.invalidateQueries();
      await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey });
      toast(kind === 'reset' ? 'Project data wiped' : 'Project deleted');
      await navigate({ to: '/' });
    },
    onError: (error) => toast(error.message, 'error'),
  });
  return (
    <Card title="Danger zone">
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => setAction('reset')}>
          Reset project data
        </Button>
        <Button variant="danger" onClick={() => setAction('delete')}>
          Delete project
        </Button>
      </div>
      <ConfirmDialog
        open={action !== undefined}
        onOpenChange={(open) => (open ? undefined : setAction(undefined))}
        title={
          action === 'delete' ? `Delete ${project.name}?` : `Wipe the data of ${project.name}?`
        }
        description={
          action === 'delete'
            ? 'The project, its contacts, templates, domains and keys are deleted. This cannot be undone.'
            : 'Its contacts, events, emails and the rest of its data are deleted; keys and members stay. This cannot be undone.'
        }
        confirmLabel={action === 'delete' ? 'Delete project' : 'Reset project'}
        typed={project.name}
        busy={run.isPending}
        onConfirm={() => action && run.mutate(action)}
      />
    </Card>
  );
}
