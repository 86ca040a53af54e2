import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import { Card } from '../components/card';
import { ErrorState, Loading } from '../components/states';
import { formatDate } from '../lib/format';

/** The emails sent to the contact, newest first, each linking to its message page. */
export function ContactEmails({ projectId, contactId }: { projectId: string; contactId: string }) {
  const emails = useQuery({
    queryKey: ['project', projectId, 'contact-emails', contactId],
    queryFn: () =>
      unwrap(api.GET('/activity', { params: { query: { contactId, type: 'sent', limit: 10 } } })),
  });
  return (
    <Card title="Emails">
      {emails.isPending ? (
        <Loading />
      ) : emails.isError ? (
        <ErrorState error={emails.error} />
      ) : emails.data.data.length === 0 ? (
        <p className="text-sm text-muted">No email sent to this contact yet.</p>
      ) : (
        <ol className="flex flex-col gap-2 text-sm">
          {emails.data.data.map((item) => (
            <li
              key={item.id}
              className="flex justify-between gap-3 border-b border-line pb-2 last:border-0"
            >
              <span className="min-w-0">
                {item.emailId ? (
                  <Link
                    to="/activity/messages/$messageId"
                    params={{ messageId: item.emailId }}
                    className="block truncate text-accent underline"
                  >
                    {item.subject ?? '(no subject)'}
                  </Link>
                ) : (
                  <span className="block truncate">{item.subject ?? '(no subject)'}</span>
                )}
                {item.campaign ? (
                  <span className="text-xs text-muted">Campaign {item.campaign.name}</span>
                ) : null}
              </span>
              <time className="shrink-0 text-xs text-muted" dateTime={item.occurredAt}>
                {formatDate(item.occurredAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
      <p className="mt-3 text-sm">
        <Link to="/activity" search={{ contact: contactId }} className="text-accent underline">
          All activity of this contact
        </Link>
      </p>
    </Card>
  );
}
