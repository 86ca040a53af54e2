import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { useProjectId } from '../api/use-project';
import { templateListQuery } from '../templates/template-list-query';

export type Workflow = ResponseOf<'/workflows/{id}', 'get'>;
export type Step = Workflow['steps'][number];
export type Transition = Workflow['transitions'][number];
export type Execution = ResponseOf<'/workflows/{id}/executions/{executionId}', 'get'>;
export type StepCounts = ResponseOf<'/workflows/{id}/step-counts', 'get'>['steps'][number];

export const workflowsKey = (projectId: string) => ['project', projectId, 'workflows'];
export const workflowKey = (projectId: string, id: string) => [...workflowsKey(projectId), id];

export function useWorkflow(workflowId: string) {
  const projectId = useProjectId();
  return useQuery({
    queryKey: workflowKey(projectId, workflowId),
    queryFn: () => unwrap(api.GET('/workflows/{id}', { params: { path: { id: workflowId } } })),
  });
}

/** Per step: executions that passed it, are at it now, ended there; refreshed while shown. */
export function useStepCounts(workflowId: string) {
  const projectId = useProjectId();
  return useQuery({
    queryKey: [...workflowKey(projectId, workflowId), 'step-counts'],
    queryFn: () =>
      unwrap(api.GET('/workflows/{id}/step-counts', { params: { path: { id: workflowId } } })),
    select: (d) => new Map(d.steps.map((s) => [s.stepId, s])),
    refetchInterval: 3000,
  });
}

/** Template names by id, for SEND_EMAIL steps. */
export function useTemplateNames() {
  const projectId = useProjectId();
  return useQuery({
    ...templateListQuery(projectId),
    select: (d) => new Map(d.templates.map((t) => [t.id, t.name])),
  });
}
