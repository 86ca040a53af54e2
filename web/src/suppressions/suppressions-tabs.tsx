import { Link } from '@tanstack/react-router';

const tab =
  'inline-flex min-h-9 items-center rounded-md px-3 py-1.5 text-sm text-muted hover:text-fg';
const active = 'bg-panel font-medium !text-fg shadow-sm';

/** The two views of bounces and complaints: the addresses suppressed, the reports received. */
export function SuppressionsTabs() {
  return (
    <nav aria-label="Bounces and complaints" className="mb-5">
      <ul className="inline-flex flex-wrap gap-1 rounded-lg bg-surface p-1">
        <li>
          <Link
            to="/suppressions"
            activeOptions={{ exact: true }}
            className={tab}
            activeProps={{ className: active, 'aria-current': 'page' }}
          >
            Suppressed addresses
          </Link>
        </li>
        <li>
          <Link
            to="/suppressions/reports"
            className={tab}
            activeProps={{ className: active, 'aria-current': 'page' }}
          >
            Delivery reports
          </Link>
        </li>
      </ul>
    </nav>
  );
}
