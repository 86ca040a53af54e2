import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { ErrorState, Loading } from '../components/states';
import { TemplateEditor } from './template-editor';

export function TemplatePage() {
  const { templateId } = useParams({ from: '/app/templates/$templateId' });
  const projectId = useProjectId();
  const template = useQuery({
    queryKey: ['project', projectId, 'template', templateId],
    queryFn: () => unwrap(api.GET('/templates/{id}', { params: { path: { id: templateId } } })),
    // The editor owns the form once loaded; a refetch would not reset what is being typed.
    staleTime: Infinity,
  });
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/templates" className="text-accent underline">
          ← Templates
        </Link>
      </p>
      {template.isPending ? (
        <Loading label="Loading the template" />
      ) : template.isError ? (
        <ErrorState error={template.error} />
      ) : (
        <TemplateEditor key={template.data.id} projectId={projectId} template={template.data} />
      )}
    </>
  );
}
