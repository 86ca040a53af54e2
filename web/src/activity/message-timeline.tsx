import { Card } from '../components/card';
import { formatDate } from '../lib/format';
import { eventDetail, reachedMoments, reportIdOf, type Message } from './message-types';
import { ReportLink } from './report-link';

/** When the email was queued, sent, delivered, first opened..., then every event about it. */
export function MessageTimeline({ message }: { message: Message }) {
  const moments = reachedMoments(message.timestamps);
  return (
    <>
      <Card title="Timeline">
        <ol className="flex flex-col gap-2 text-sm">
          {moments.map((m) => (
            <li key={m.label} className="flex items-baseline justify-between gap-3">
              <span className="font-medium">{m.label}</span>
              <time className="shrink-0 text-xs text-muted" dateTime={m.at}>
                {formatDate(m.at)}
              </time>
            </li>
          ))}
        </ol>
      </Card>
      <Card title="Events">
        {message.events.length === 0 ? (
          <p className="text-sm text-muted">No event recorded about this email yet.</p>
        ) : (
          <ol className="flex flex-col gap-2 text-sm" aria-label="Events of this email">
            {message.events.map((e) => {
              const detail = eventDetail(e.data);
              const reportId = reportIdOf(e.data);
              return (
                <li
                  key={e.id}
                  className="flex flex-wrap items-baseline justify-between gap-x-3 border-b border-line pb-2 last:border-0"
                >
                  <span className="min-w-0">
                    <span className="font-mono text-xs">{e.name}</span>
                    {detail ? (
                      <span className="block text-xs break-all text-muted">{detail}</span>
                    ) : null}
                    {reportId ? (
                      <span className="block text-xs">
                        <ReportLink
                          reportId={reportId}
                          label={`View the report behind ${e.name}`}
                        />
                      </span>
                    ) : null}
                  </span>
                  <time className="shrink-0 text-xs text-muted" dateTime={e.occurredAt}>
                    {formatDate(e.occurredAt)}
                  </time>
                </li>
              );
            })}
          </ol>
        )}
      </Card>
    </>
  );
}
