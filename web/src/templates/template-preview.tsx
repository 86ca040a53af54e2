import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { Card } from '../components/card';
import { ErrorState } from '../components/states';
import { useDebounced } from '../lib/use-debounced';
import { PreviewFrame } from './preview-frame';

/** The email as a send would render it, with sample data, refreshed as the user types. */
export function TemplatePreview({
  projectId,
  subject,
  body,
}: {
  projectId: string;
  subject: string;
  body: string;
}) {
  // Strings, not an object: a fresh object at every render would restart the wait each time.
  const source = { subject: useDebounced(subject, 250), body: useDebounced(body, 250) };
  const preview = useQuery({
    queryKey: ['project', projectId, 'template-preview', source.subject, source.body],
    queryFn: () => unwrap(api.POST('/templates/preview', { body: source })),
    placeholderData: (previous) => previous,
    retry: false,
  });
  return (
    <Card title="Preview">
      {preview.isError ? <ErrorState error={preview.error} /> : null}
      <p className="mb-2 text-sm">
        <span className="text-muted">Subject: </span>
        <span data-testid="preview-subject">{preview.data?.subject ?? ''}</span>
      </p>
      {/* Mounted once there is HTML: a frame that starts empty navigates again when it arrives. */}
      {preview.data ? (
        <PreviewFrame title="Email preview" html={preview.data.html} />
      ) : (
        <div aria-busy="true" className="h-[32rem] w-full rounded-md border border-line bg-white" />
      )}
      <p className="mt-2 text-xs text-muted">
        Rendered with sample data (Jane Doe, jane.doe@example.com).
      </p>
    </Card>
  );
}
