import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { StepType } from '../../../domain/automation/step-type.pure';
import { api, ApiError, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { Input } from '../components/input';
import { ErrorState } from '../components/states';
import { useToast } from '../components/toast';
import { UnsavedChangesGuard } from '../components/unsaved-changes';
import { STANDARD_FIELD_OPTIONS, type FieldOption } from '../filters/use-filter-fields';
import { initialConfig, StepConfigFields, type Config } from './step-config-fields';
import { STEP_LABELS } from './step-summary';
import type { WorkflowEdits } from './use-workflow-edits';
import type { Step, Transition } from './workflow-queries';

/** The fields a CONDITION reads in a workflow: the contact's, and the trigger event's data. */
function useWorkflowFields(triggerEvent: string | null): FieldOption[] {
  const projectId = useProjectId();
  const fields = useQuery({
    queryKey: ['project', projectId, 'workflows', 'fields'],
    queryFn: () => unwrap(api.GET('/workflows/fields')),
  });
  const data = (fields.data?.fields ?? [])
    .filter((f) => f.field.startsWith('data.'))
    .map((f) => ({
      value: f.field,
      label: f.field.slice('data.'.length),
      group: 'Contact data' as const,
      type: f.type as FieldOption['type'],
    }));
  const event = (fields.data?.events ?? [])
    .filter((e) => e.name === triggerEvent)
    .flatMap((e) => e.fields)
    .map((f) => ({ value: f, label: f, group: 'Events' as const, type: 'mixed' as const }));
  return [...STANDARD_FIELD_OPTIONS, ...data, ...event];
}

/** A step's name and config, edited and saved here; or a new step of `type`, added here. */
export function StepPanel({
  step,
  type,
  edits,
  triggerEvent,
  onDone,
  insertOn,
}: {
  step?: Step;
  /** A new step goes on this link: from its step (same branch) to the new one, then on. */
  insertOn?: Transition;
  type: StepType;
  edits: WorkflowEdits;
  triggerEvent: string | null;
  onDone: (stepId?: string) => void;
}) {
  const toast = useToast();
  const workflowFields = useWorkflowFields(triggerEvent);
  const [name, setName] = useState(step?.name ?? '');
  const [config, setConfig] = useState<Config>(() => step?.config ?? initialConfig(type));
  const [error, setError] = useState<ApiError | Error>();
  const dirty =
    !step || name !== (step.name ?? '') || JSON.stringify(config) !== JSON.stringify(step.config);
  const busy = edits.addStep.isPending || edits.updateStep.isPending;
  const fieldErrors = error instanceof ApiError ? error.fieldErrors : [];
  const errorOf = (key: string) =>
    fieldErrors.find((f) => f.field === `config.${key}` || f.field?.startsWith(`config.${key}.`))
      ?.message;
  const unplaced = fieldErrors.filter(
    (f) =>
      ![
        'field',
        'operator',
        'value',
        'unit',
        'amount',
        'eventName',
        'timeoutSeconds',
        'url',
        'body',
        'data',
        'tag',
        'reason',
      ].some((k) => f.field === `config.${k}` || f.field?.startsWith(`config.${k}.`)),
  );

  const save = async () => {
    setError(undefined);
    try {
      if (step) {
        await edits.updateStep.mutateAsync({
          stepId: step.id,
          body: { name: name || null, config },
        });
        toast('Step saved');
        onDone(step.id);
      } else {
        const created = await edits.addStep.mutateAsync({ type, name: name || null, config });
        if (insertOn) {
          // The new step's way on first, then the old link gives way to the one into it.
          await edits.addTransition.mutateAsync({
            fromStepId: created.id,
            toStepId: insertOn.toStepId,
            branch: null,
          });
          await edits.deleteTransitions.mutateAsync([insertOn.id]);
          await edits.addTransition.mutateAsync({
            fromStepId: insertOn.fromStepId,
            toStepId: created.id,
            branch: insertOn.branch,
          });
          toast(`${STEP_LABELS[type]} inserted`);
        } else {
          toast(`${STEP_LABELS[type]} added: connect it on the canvas`);
        }
        onDone(created.id);
      }
    } catch (e) {
      setError(e as Error);
    }
  };

  return (
    <form
      noValidate
      aria-label={step ? `Edit ${STEP_LABELS[type]} step` : `New ${STEP_LABELS[type]} step`}
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 className="text-base font-semibold">
        {step ? `${STEP_LABELS[type]} step` : `New ${STEP_LABELS[type].toLowerCase()} step`}
      </h2>
      <Input label="Step name" value={name} onChange={(e) => setName(e.target.value)} />
      <StepConfigFields
        type={type}
        config={config}
        onChange={setConfig}
        errorOf={errorOf}
        workflowFields={workflowFields}
      />
      {error && (!(error instanceof ApiError) || unplaced.length > 0) ? (
        <ErrorState error={error} />
      ) : null}
      <div className="flex flex-wrap justify-between gap-2">
        {step ? (
          <Button
            variant="danger"
            busy={edits.deleteSteps.isPending}
            onClick={() => edits.deleteSteps.mutate([step.id], { onSuccess: () => onDone() })}
          >
            Delete step
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => onDone()}>
            Cancel
          </Button>
        )}
        <Button type="submit" busy={busy} disabled={!dirty}>
          {step ? 'Save step' : 'Add step'}
        </Button>
      </div>
      <UnsavedChangesGuard dirty={Boolean(step) && dirty && !busy} />
    </form>
  );
}
