import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Card } from '../components/card';
import { PageHeader } from '../components/page-header';
import { ErrorState, Loading } from '../components/states';
import { PreviewFrame } from '../templates/preview-frame';
import { MessageDetails } from './message-details';
import { MessageTimeline } from './message-timeline';

export function MessagePage() {
  const projectId = useProjectId();
  const { messageId } = useParams({ from: '/app/activity/messages/$messageId' });
  const message = useQuery({
    queryKey: ['project', projectId, 'message', messageId],
    queryFn: () => unwrap(api.GET('/emails/{id}', { params: { path: { id: messageId } } })),
  });

  return (
    <>
      <Link
        to="/activity"
        className="mb-3 inline-block text-sm text-accent underline-offset-2 hover:underline"
      >
        ← Activity
      </Link>
      {message.isPending ? (
        <Loading label="Loading the email" />
      ) : message.isError ? (
        <ErrorState error={message.error} />
      ) : (
        <>
          <PageHeader
            title={message.data.subject || '(no subject)'}
            description={`To ${message.data.to.email}`}
          />
          <div className="grid gap-4 lg:grid-cols-2">
            <MessageDetails message={message.data} />
            <div className="flex min-w-0 flex-col gap-4">
              <MessageTimeline message={message.data} />
            </div>
          </div>
          <div className="mt-4">
            <Card title="Body">
              {message.data.html !== null ? (
                <PreviewFrame title="Email body" html={message.data.html} />
              ) : (
                <p className="text-sm text-muted">
                  {message.data.renderError
                    ? `The body could not be rendered: ${message.data.renderError}`
                    : 'This email has no body.'}
                </p>
              )}
              <p className="mt-2 text-xs text-muted">
                Shown without scripts, with the email’s own data; tracking and unsubscribe links are
                left out.
              </p>
            </Card>
          </div>
        </>
      )}
    </>
  );
}
