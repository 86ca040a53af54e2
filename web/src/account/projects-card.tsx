import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { selectProject } from '../api/project-store';
import { useProject } from '../api/use-project';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { EmptyState } from '../components/empty-state';
import { ErrorState, Loading } from '../components/states';
import { formatDate } from '../lib/format';
import { ProjectActionDialog } from './project-action-dialog';
import { useProjectAction, type ActionTarget, type ProjectAction } from './use-project-action';

const newProjectLink = (
  <Link
    to="/projects/new"
    className="inline-flex min-h-9 items-center rounded-md bg-accent px-3.5 py-1.5 text-sm font-medium text-accent-fg hover:opacity-90"
  >
    New project
  </Link>
);

/** The user's projects with their role; an owner may reset or delete one. */
export function ProjectsCard() {
  const { project: current, projects, query } = useProject();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState<{ kind: ProjectAction; project: ActionTarget }>();
  const run = useProjectAction(() => setPending(undefined));

  const open = async (id: string) => {
    selectProject(id);
    await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'project' });
    await navigate({ to: '/' });
  };

  return (
    <Card title="Your projects" actions={projects.length > 0 ? newProjectLink : undefined}>
      {query.isPending ? (
        <Loading label="Loading projects" />
      ) : query.isError ? (
        <ErrorState error={query.error} />
      ) : projects.length === 0 ? (
        <EmptyState title="No project yet" action={newProjectLink}>
          A project holds its own contacts, templates, domains and keys.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-line" aria-label="Your projects">
          {projects.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3 text-sm">
              <div className="min-w-0 flex-1 basis-48">
                <p className="font-medium break-words">
                  {p.name}
                  {p.id === current?.id ? (
                    <span className="ml-2 rounded-full bg-accent/15 px-2 py-0.5 text-xs text-accent">
                      current
                    </span>
                  ) : null}
                </p>
                <p className="text-xs text-muted">
                  {(p.role ?? 'member').toLowerCase()} · created {formatDate(p.createdAt)}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                {p.id === current?.id ? null : (
                  <Button
                    variant="secondary"
                    aria-label={`Open ${p.name}`}
                    onClick={() => void open(p.id)}
                  >
                    Open
                  </Button>
                )}
                {p.role === 'OWNER' ? (
                  <>
                    <Button
                      variant="secondary"
                      aria-label={`Reset ${p.name}`}
                      onClick={() => setPending({ kind: 'reset', project: p })}
                    >
                      Reset
                    </Button>
                    <Button
                      variant="danger"
                      aria-label={`Delete ${p.name}`}
                      onClick={() => setPending({ kind: 'delete', project: p })}
                    >
                      Delete
                    </Button>
                  </>
                ) : (
                  <p className="text-xs text-muted">Only an owner can reset or delete it.</p>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ProjectActionDialog
        action={pending?.kind}
        project={pending?.project}
        busy={run.isPending}
        onCancel={() => setPending(undefined)}
        onConfirm={() => pending && run.mutate(pending)}
      />
    </Card>
  );
}
