import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { currentProjectId, subscribeProject } from './project-store';
import { projectsQuery } from './session';

/**
 * The project the dashboard works in: the stored choice when the user still belongs to it, else
 * their first project. `project` is undefined while loading or when the user has none.
 */
export function useProject() {
  const selected = useSyncExternalStore(subscribeProject, currentProjectId);
  const projects = useQuery(projectsQuery);
  const list = projects.data ?? [];
  const project = list.find((p) => p.id === selected) ?? list[0];
  return { project, projects: list, query: projects };
}

/** The current project's id, for pages that only render inside a chosen project. */
export function useProjectId(): string {
  const { project } = useProject();
  if (!project) throw new Error('No project selected');
  return project.id;
}

export const isAdmin = (role: string | undefined): boolean => role === 'OWNER' || role === 'ADMIN';
