import { Link, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { currentProjectId, selectProject } from '../api/project-store';
import { useProject } from '../api/use-project';
import { ErrorState, Loading } from '../components/states';
import { NavLinks } from './nav-links';
import { ProjectSwitcher } from './project-switcher';
import { UserMenu } from './user-menu';

export function AppLayout() {
  const { project, projects, query } = useProject();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // The phone menu closes by itself on navigation: it is open for one path only.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = menuOpenAt === pathname;

  // Keep the stored choice in step with the list (a deleted project, a first project).
  useEffect(() => {
    if (project) selectProject(project.id);
  }, [project]);
  useEffect(() => {
    if (query.isSuccess && projects.length === 0 && pathname !== '/projects/new') {
      void navigate({ to: '/projects/new' });
    }
  }, [query.isSuccess, projects.length, pathname, navigate]);

  // A page renders once the client names its project (the effect above stores the first one for
  // a browser that has none), so its first requests carry X-Project-Id.
  const pageReady =
    (project !== undefined && project.id === currentProjectId()) || pathname === '/projects/new';

  return (
    <div className="min-h-screen md:grid md:grid-cols-[15rem_1fr]">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-panel focus:p-2"
      >
        Skip to content
      </a>
      <aside className="border-b border-line bg-panel md:sticky md:top-0 md:h-screen md:border-r md:border-b-0">
        <div className="flex items-center justify-between gap-2 px-4 py-3 md:block">
          <Link to="/" className="text-lg font-semibold tracking-tight">
            <span aria-hidden className="mr-1 text-accent">
              ✉
            </span>{' '}
            Mailwright
          </Link>
          <button
            type="button"
            className="rounded-md border border-line px-3 py-1.5 text-sm md:hidden"
            aria-expanded={menuOpen}
            aria-controls="app-nav"
            onClick={() => setMenuOpenAt(menuOpen ? null : pathname)}
          >
            Menu
          </button>
        </div>
        <div
          id="app-nav"
          className={`${menuOpen ? 'flex' : 'hidden'} flex-col gap-4 px-3 pb-4 md:flex`}
        >
          {projects.length > 0 ? <ProjectSwitcher projects={projects} current={project} /> : null}
          <NavLinks role={project?.role} />
          <UserMenu />
        </div>
      </aside>
      <main id="main" className="min-w-0 px-4 py-6 sm:px-8 sm:py-8">
        {query.isPending ? (
          <Loading />
        ) : query.isError ? (
          <ErrorState error={query.error} />
        ) : pageReady ? (
          <Outlet />
        ) : (
          <Loading />
        )}
      </main>
    </div>
  );
}
