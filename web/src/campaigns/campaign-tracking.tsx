import { useQuery } from '@tanstack/react-query';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { api, unwrap } from '../api/client';
import { useProject } from '../api/use-project';
import { Card } from '../components/card';
import { TrackingFields } from '../components/tracking-fields';
import type { CampaignForm } from './campaign-form';

/**
 * The campaign's own open and click tracking. Its default is the template's setting (when the
 * campaign was made from one that has its own), then the project's, shown as they are now.
 */
export function CampaignTracking({ form }: { form: UseFormReturn<CampaignForm> }) {
  const { project } = useProject();
  const templateId = useWatch({ control: form.control, name: 'templateId' });
  const template = useQuery({
    queryKey: ['project', project?.id, 'template', templateId],
    queryFn: () => unwrap(api.GET('/templates/{id}', { params: { path: { id: templateId } } })),
    enabled: Boolean(project && templateId),
  });
  const projectTracking = project?.settings.tracking;
  const own = templateId ? template.data?.tracking : undefined;
  const inherited = projectTracking && {
    opens: own?.opens ?? projectTracking.opens,
    clicks: own?.clicks ?? projectTracking.clicks,
  };
  return (
    <Card title="Tracking">
      <TrackingFields
        legendHidden
        opens={form.register('openTracking')}
        clicks={form.register('clickTracking')}
        inherited={templateId && template.isPending ? undefined : inherited}
        inheritedFrom={
          templateId
            ? "the template's setting, then the project's"
            : "the project's setting (Settings)"
        }
      />
    </Card>
  );
}
