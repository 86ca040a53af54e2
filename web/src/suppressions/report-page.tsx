import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useProjectId } from '../api/use-project';
import { Card } from '../components/card';
import { PageHeader } from '../components/page-header';
import { ErrorState, Loading } from '../components/states';
import { formatDate } from '../lib/format';
import { OutcomeBadge } from './outcome-badge';
import { FORMAT_LABELS, OUTCOME_HELP, type DeliveryReport } from './report-labels';
import { useDeliveryReport, useReportMessage } from './use-delivery-reports';

const linkClass = 'text-accent underline underline-offset-2';

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 border-b border-line py-2 last:border-0 sm:grid-cols-[9rem_minmax(0,1fr)] sm:gap-3">
      <dt className="text-muted">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function ReportDetails({ report }: { report: DeliveryReport }) {
  return (
    <Card title="Details">
      <dl className="text-sm">
        <Row term="Outcome">
          <div className="flex flex-col items-start gap-1">
            <OutcomeBadge outcome={report.outcome} />
            <span className="text-muted">{report.reason ?? OUTCOME_HELP[report.outcome]}</span>
          </div>
        </Row>
        <Row term="Read as">{FORMAT_LABELS[report.format]}</Row>
        <Row term="Received">{formatDate(report.createdAt)}</Row>
        <Row term="Email">
          {report.emailId ? (
            <>
              To {report.emailTo ?? 'an unknown recipient'}
              {' · '}
              <Link
                to="/activity/messages/$messageId"
                params={{ messageId: report.emailId }}
                className={linkClass}
              >
                View email
              </Link>
            </>
          ) : (
            <span className="text-muted">The address names no email of this project</span>
          )}
        </Row>
        <Row term="Sent to">
          <code className="font-mono text-xs break-all">{report.recipient}</code>
        </Row>
        <Row term="Kept as">
          <code className="font-mono text-xs break-all">{report.storageKey}</code>
          <span className="text-muted"> under the data directory</span>
        </Row>
      </dl>
    </Card>
  );
}

// A message up to INBOUND_MAX_BYTES (10 MiB) would freeze the page; the download has it all.
const SHOWN_CHARS = 200_000;

/** The message as it arrived, with a download of the .eml file. */
function ReportMessage({ report }: { report: DeliveryReport }) {
  const projectId = useProjectId();
  const message = useReportMessage(projectId, report.id);
  const download = useMemo(
    () =>
      message.data === undefined
        ? undefined
        : URL.createObjectURL(new Blob([message.data], { type: 'message/rfc822' })),
    [message.data],
  );
  useEffect(() => () => (download ? URL.revokeObjectURL(download) : undefined), [download]);
  return (
    <Card
      title="Message"
      actions={
        download ? (
          <a
            href={download}
            download={`report-${report.id}.eml`}
            className="inline-flex min-h-9 items-center rounded-md border border-line bg-panel px-3.5 py-1.5 text-sm font-medium text-fg hover:bg-surface"
          >
            Download .eml
          </a>
        ) : null
      }
    >
      {message.isPending ? (
        <Loading label="Loading the message" />
      ) : message.isError ? (
        <ErrorState error={message.error} />
      ) : (
        <>
          <pre
            tabIndex={0}
            aria-label="The report as it arrived"
            className="max-h-[32rem] overflow-auto rounded-md border border-line bg-surface p-3 font-mono text-xs break-all whitespace-pre-wrap"
          >
            {message.data.slice(0, SHOWN_CHARS)}
          </pre>
          {message.data.length > SHOWN_CHARS ? (
            <p className="mt-2 text-xs text-muted">
              The first {SHOWN_CHARS.toLocaleString()} characters; download the message for all of
              it.
            </p>
          ) : null}
        </>
      )}
    </Card>
  );
}

export function ReportPage() {
  const projectId = useProjectId();
  const { reportId } = useParams({ from: '/app/suppressions/reports/$reportId' });
  const report = useDeliveryReport(projectId, reportId);

  return (
    <>
      <Link
        to="/suppressions/reports"
        className="mb-3 inline-block text-sm text-accent underline-offset-2 hover:underline"
      >
        ← Delivery reports
      </Link>
      {report.isPending ? (
        <Loading label="Loading the report" />
      ) : report.isError ? (
        <ErrorState error={report.error} />
      ) : (
        <>
          <PageHeader
            title="Delivery report"
            description={
              report.data.emailTo
                ? `About the email to ${report.data.emailTo}`
                : 'About no email of this project'
            }
          />
          <div className="flex flex-col gap-4">
            <ReportDetails report={report.data} />
            <ReportMessage report={report.data} />
          </div>
        </>
      )}
    </>
  );
}
