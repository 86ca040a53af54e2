import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { selectProject } from '../api/project-store';

interface ProjectOption {
  id: string;
  name: string;
}

/** Switching project refetches everything: every project-scoped query depends on it. */
export function ProjectSwitcher({
  projects,
  current,
}: {
  projects: ProjectOption[];
  current: ProjectOption | undefined;
}) {
  const queryClient = useQueryClient();
  return (
    <div className="flex flex-col gap-1 px-1">
      <label htmlFor="project-switcher" className="text-xs font-medium text-muted">
        Project
      </label>
      <select
        id="project-switcher"
        value={current?.id ?? ''}
        onChange={(e) => {
          selectProject(e.target.value);
          void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'project' });
        }}
        className="min-h-9 rounded-md border border-line bg-panel px-2 text-sm"
      >
        {projects.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      <Link to="/projects/new" className="text-xs text-accent underline">
        New project
      </Link>
    </div>
  );
}
