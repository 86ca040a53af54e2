import { Link } from '@tanstack/react-router';
import { Table, type Column } from '../components/table';
import { formatDate } from '../lib/format';
import { OutcomeBadge } from './outcome-badge';
import { FORMAT_LABELS, type DeliveryReport } from './report-labels';

const linkClass = 'text-accent underline-offset-2 hover:underline';

function ReportLink({ report }: { report: DeliveryReport }) {
  return (
    <Link
      to="/suppressions/reports/$reportId"
      params={{ reportId: report.id }}
      className={`whitespace-nowrap ${linkClass}`}
    >
      View report
      <span className="sr-only">
        {' '}
        received {formatDate(report.createdAt)}
        {report.emailTo ? ` about ${report.emailTo}` : ''}
      </span>
    </Link>
  );
}

/**
 * Whom the report is about (its email's recipient, or that it names none of the project's
 * emails); on a phone, where the other columns are hidden, the outcome and when under it.
 */
function AboutCell({ report }: { report: DeliveryReport }) {
  return (
    <div className="flex min-w-0 flex-col items-start gap-1.5">
      {report.emailTo ? (
        <span className="font-medium break-all md:break-normal md:whitespace-nowrap">
          {report.emailTo}
        </span>
      ) : (
        <span className="text-muted">No email of this project</span>
      )}
      <div className="flex flex-col gap-1.5 md:hidden">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
          <OutcomeBadge outcome={report.outcome} />
          <time dateTime={report.createdAt}>{formatDate(report.createdAt)}</time>
        </div>
        {report.reason ? <p className="text-xs text-muted">{report.reason}</p> : null}
      </div>
      <ReportLink report={report} />
    </div>
  );
}

/** The outcome, and why under it. */
function OutcomeCell({ report }: { report: DeliveryReport }) {
  return (
    <div className="flex max-w-72 flex-col items-start gap-1">
      <OutcomeBadge outcome={report.outcome} />
      {report.reason ? <span className="text-xs text-muted">{report.reason}</span> : null}
    </div>
  );
}

export function ReportsTable({ rows }: { rows: DeliveryReport[] }) {
  const columns: Column<DeliveryReport>[] = [
    { header: 'About', cell: (r) => <AboutCell report={r} /> },
    { header: 'Outcome', cell: (r) => <OutcomeCell report={r} />, wide: true },
    {
      header: 'Read as',
      cell: (r) => <span className="whitespace-nowrap">{FORMAT_LABELS[r.format]}</span>,
      wide: true,
    },
    {
      header: 'Received',
      cell: (r) => (
        <time dateTime={r.createdAt} className="whitespace-nowrap">
          {formatDate(r.createdAt)}
        </time>
      ),
      wide: true,
    },
  ];
  return (
    <Table<DeliveryReport>
      caption="Delivery reports"
      rows={rows}
      rowKey={(r) => r.id}
      columns={columns}
    />
  );
}
