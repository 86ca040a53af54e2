import { Link } from '@tanstack/react-router';
import { Button } from '../components/button';
import { Table, type Column } from '../components/table';
import { formatDate } from '../lib/format';
import { EvidenceCell } from './evidence';
import { ReasonBadge } from './reason-badge';
import { sourceLabel, type Suppression } from './suppression-labels';

const linkClass = 'text-accent underline-offset-2 hover:underline';

function EmailLink({ suppression }: { suppression: Suppression }) {
  if (!suppression.emailId) return null;
  return (
    <Link
      to="/activity/messages/$messageId"
      params={{ messageId: suppression.emailId }}
      className={`whitespace-nowrap ${linkClass}`}
    >
      View email<span className="sr-only"> to {suppression.email}</span>
    </Link>
  );
}

const sourceLine = (source: string | null): string =>
  source === null ? 'Source not recorded' : `Via ${sourceLabel(source)}`;

/**
 * The address and a link to the email behind it; on a phone (where the other columns are
 * hidden) everything else between them: reason, when, where from and the evidence.
 */
function AddressCell({ suppression }: { suppression: Suppression }) {
  return (
    <div className="flex min-w-0 flex-col items-start gap-1.5">
      <span className="font-medium break-all md:break-normal md:whitespace-nowrap">
        {suppression.email}
      </span>
      <div className="flex flex-col gap-1.5 md:hidden">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
          <ReasonBadge reason={suppression.reason} />
          <time dateTime={suppression.createdAt}>{formatDate(suppression.createdAt)}</time>
        </div>
        <p className="text-xs text-muted">{sourceLine(suppression.source)}</p>
        <EvidenceCell suppression={suppression} compact />
      </div>
      <EmailLink suppression={suppression} />
    </div>
  );
}

/** The reason, and where it was learnt under it. */
function ReasonCell({ suppression }: { suppression: Suppression }) {
  return (
    <div className="flex flex-col items-start gap-1">
      <ReasonBadge reason={suppression.reason} />
      <span className="text-xs whitespace-nowrap text-muted">{sourceLine(suppression.source)}</span>
    </div>
  );
}

/** The suppression list; `onLift` (admins only) adds the per-row action. */
export function SuppressionsTable({
  rows,
  onLift,
}: {
  rows: Suppression[];
  onLift?: (suppression: Suppression) => void;
}) {
  const columns: Column<Suppression>[] = [
    { header: 'Address', cell: (s) => <AddressCell suppression={s} /> },
    { header: 'Reason', cell: (s) => <ReasonCell suppression={s} />, wide: true },
    {
      header: 'Suppressed',
      cell: (s) => (
        <time dateTime={s.createdAt} className="whitespace-nowrap">
          {formatDate(s.createdAt)}
        </time>
      ),
      wide: true,
    },
    { header: 'Evidence', cell: (s) => <EvidenceCell suppression={s} />, wide: true },
  ];
  if (onLift) {
    columns.push({
      header: 'Action',
      cell: (s) => (
        <Button variant="secondary" aria-label={`Lift ${s.email}`} onClick={() => onLift(s)}>
          Lift
        </Button>
      ),
    });
  }
  return (
    <Table<Suppression>
      caption="Suppressed addresses"
      rows={rows}
      rowKey={(s) => s.email}
      columns={columns}
    />
  );
}
