import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { Card } from '../components/card';
import { ErrorState, Loading } from '../components/states';
import { formatDate } from '../lib/format';

/** The contact's latest events, newest first (sends, opens, tracked events). */
export function ContactEvents({ projectId, contactId }: { projectId: string; contactId: string }) {
  const events = useQuery({
    queryKey: ['project', projectId, 'contact-events', contactId],
    queryFn: () =>
      unwrap(
        api.GET('/events/contact/{contactId}', {
          params: { path: { contactId }, query: { limit: 20 } },
        }),
      ),
  });
  return (
    <Card title="Events">
      {events.isPending ? (
        <Loading />
      ) : events.isError ? (
        <ErrorState error={events.error} />
      ) : events.data.data.length === 0 ? (
        <p className="text-sm text-muted">No events yet.</p>
      ) : (
        <ol className="flex flex-col gap-2 text-sm">
          {events.data.data.map((e) => (
            <li
              key={e.id}
              className="flex justify-between gap-3 border-b border-line pb-2 last:border-0"
            >
              <span className="font-mono text-xs">{e.name}</span>
              <time className="shrink-0 text-xs text-muted" dateTime={e.createdAt}>
                {formatDate(e.createdAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
