import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

// The same key as the settings page's: one request for the installation's configuration.
const configQuery = {
  queryKey: ['config'],
  queryFn: () => unwrap(api.GET('/config')),
  staleTime: Infinity,
};

/** "View run in Temporal UI" for a job's workflow; nothing when no Temporal UI is configured. */
export function TemporalRunLink({ workflowId }: { workflowId: string }) {
  const config = useQuery(configQuery);
  const base = config.data?.temporalUiUrl;
  if (!base || !config.data) return null;
  const href = `${base}/namespaces/${encodeURIComponent(config.data.temporalNamespace)}/workflows/${encodeURIComponent(workflowId)}`;
  return (
    <a
      href={href}
      target="_blank"
      rel="noreferrer"
      className="text-sm text-accent underline-offset-2 hover:underline"
    >
      View run in Temporal UI
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
