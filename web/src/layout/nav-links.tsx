import { Link } from '@tanstack/react-router';

const LINKS = [
  { to: '/', label: 'Overview' },
  { to: '/contacts', label: 'Contacts' },
  { to: '/segments', label: 'Segments' },
  { to: '/campaigns', label: 'Campaigns' },
  { to: '/workflows', label: 'Workflows' },
  { to: '/templates', label: 'Templates' },
  { to: '/activity', label: 'Activity' },
  { to: '/analytics', label: 'Analytics' },
  { to: '/domains', label: 'Domains' },
  { to: '/suppressions', label: 'Suppressions' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/settings', label: 'Settings' },
] as const;

export function NavLinks({ role }: { role: string | undefined }) {
  return (
    <nav aria-label="Main">
      <ul className="flex flex-col gap-0.5">
        {LINKS.map((link) => (
          <li key={link.to}>
            <Link
              to={link.to}
              activeOptions={{ exact: link.to === '/' }}
              className="block rounded-md px-3 py-2 text-sm text-muted hover:bg-surface hover:text-fg"
              activeProps={{ className: 'bg-surface font-medium !text-fg', 'aria-current': 'page' }}
            >
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
      {role ? (
        <p className="mt-3 px-3 text-xs text-muted">Your role: {role.toLowerCase()}</p>
      ) : null}
    </nav>
  );
}
