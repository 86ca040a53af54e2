import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TransitionBranch } from '../../../domain/automation/step-type.pure';
import { api, unwrap } from '../api/client';
import type { BodyOf } from '../api/types';
import { useProjectId } from '../api/use-project';
import { useToast } from '../components/toast';
import { workflowKey, workflowsKey } from './workflow-queries';

export type WorkflowPatch = BodyOf<'/workflows/{id}', 'patch'>;
export type NewStep = BodyOf<'/workflows/{id}/steps', 'post'>;
export type StepPatch = BodyOf<'/workflows/{id}/steps/{stepId}', 'patch'>;

/** Every change the editor makes, each one API call, each refreshing the workflow after. */
export function useWorkflowEdits(workflowId: string) {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: workflowKey(projectId, workflowId) });
  const id = { path: { id: workflowId } };
  const failed = (error: Error) => toast(error.message, 'error');

  return {
    patchWorkflow: useMutation({
      mutationFn: (body: WorkflowPatch) =>
        unwrap(api.PATCH('/workflows/{id}', { params: id, body })),
      onSuccess: async () => {
        await refresh();
        await queryClient.invalidateQueries({ queryKey: workflowsKey(projectId) });
      },
    }),
    addStep: useMutation({
      mutationFn: (body: NewStep) =>
        unwrap(api.POST('/workflows/{id}/steps', { params: id, body })),
      onSuccess: refresh,
    }),
    updateStep: useMutation({
      mutationFn: ({ stepId, body }: { stepId: string; body: StepPatch }) =>
        unwrap(
          api.PATCH('/workflows/{id}/steps/{stepId}', {
            params: { path: { id: workflowId, stepId } },
            body,
          }),
        ),
      onSuccess: refresh,
    }),
    deleteSteps: useMutation({
      mutationFn: async (stepIds: string[]) => {
        for (const stepId of stepIds) {
          await unwrap(
            api.DELETE('/workflows/{id}/steps/{stepId}', {
              params: { path: { id: workflowId, stepId } },
            }),
          );
        }
      },
      onSettled: refresh,
      onError: failed,
    }),
    addTransition: useMutation({
      mutationFn: (body: {
        fromStepId: string;
        toStepId: string;
        branch: TransitionBranch | null;
      }) => unwrap(api.POST('/workflows/{id}/transitions', { params: id, body })),
      onSettled: refresh,
      onError: failed,
    }),
    deleteTransitions: useMutation({
      mutationFn: async (transitionIds: string[]) => {
        for (const transitionId of transitionIds) {
          await unwrap(
            api.DELETE('/workflows/{id}/transitions/{transitionId}', {
              params: { path: { id: workflowId, transitionId } },
            }),
          );
        }
      },
      onSettled: refresh,
      onError: failed,
    }),
  };
}

export type WorkflowEdits = ReturnType<typeof useWorkflowEdits>;
