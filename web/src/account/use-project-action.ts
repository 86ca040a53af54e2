import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import { currentProjectId, selectProject } from '../api/project-store';
import { projectsQuery } from '../api/session';
import { useToast } from '../components/toast';

export type ProjectAction = 'reset' | 'delete';

export interface ActionTarget {
  id: string;
  name: string;
}

const ofProject = (id: string) => ({
  predicate: (q: { queryKey: readonly unknown[] }) =>
    q.queryKey[0] === 'project' && q.queryKey[1] === id,
});

/**
 * Reset (wipe the data, keep the project) or delete a project. Deleting the project the dashboard
 * works in moves it to another of the user's projects, or to the new-project page when none is
 * left; the list is updated at once so nothing shows the deleted project in between.
 */
export function useProjectAction(onDone: () => void) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  return useMutation({
    mutationFn: async ({ kind, project }: { kind: ProjectAction; project: ActionTarget }) => {
      const path = { params: { path: { id: project.id } } };
      if (kind === 'reset') await unwrap(api.POST('/users/@me/projects/{id}/reset', path));
      else await unwrap(api.DELETE('/users/@me/projects/{id}', path));
      return { kind, project };
    },
    onSuccess: async ({ kind, project }) => {
      onDone();
      if (kind === 'reset') {
        await queryClient.invalidateQueries(ofProject(project.id));
        toast(`The data of ${project.name} was wiped`);
        return;
      }
      const list = queryClient.getQueryData(projectsQuery.queryKey) ?? [];
      const current = list.find((p) => p.id === currentProjectId()) ?? list[0];
      const remaining = list.filter((p) => p.id !== project.id);
      if (current?.id === project.id) selectProject(remaining[0]?.id ?? null);
      queryClient.setQueryData(projectsQuery.queryKey, remaining);
      queryClient.removeQueries(ofProject(project.id));
      toast(`${project.name} deleted`);
      if (remaining.length === 0) await navigate({ to: '/projects/new' });
      await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey });
    },
    onError: (error) => toast(error.message, 'error'),
  });
}
