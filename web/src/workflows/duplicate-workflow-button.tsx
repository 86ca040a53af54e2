import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { useToast } from '../components/toast';
import { workflowsKey } from './workflow-queries';

/** Makes a disabled copy of the workflow (trigger, steps, links) and opens it. */
export function DuplicateWorkflowButton({ workflow }: { workflow: { id: string; name: string } }) {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const duplicate = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/workflows/{id}/duplicate', { params: { path: { id: workflow.id } } })),
    onSuccess: async (copy) => {
      await queryClient.invalidateQueries({ queryKey: workflowsKey(projectId) });
      toast(`Duplicated as ${copy.name}, disabled`);
      await navigate({ to: '/workflows/$workflowId', params: { workflowId: copy.id } });
    },
    onError: (error) => toast(error.message, 'error'),
  });
  return (
    <Button
      variant="secondary"
      busy={duplicate.isPending}
      aria-label={`Duplicate ${workflow.name}`}
      onClick={() => duplicate.mutate()}
    >
      Duplicate
    </Button>
  );
}
