import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { TRIGGER_TYPES, type TriggerType } from '../../../domain/automation/trigger-type.pure';
import { assertNever } from '../../../domain/shared/assert-never.pure';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { Input } from '../components/input';
import { Select } from '../components/select';
import { ErrorState } from '../components/states';
import { useToast } from '../components/toast';
import type { WorkflowEdits } from './use-workflow-edits';
import type { Workflow } from './workflow-queries';

const TRIGGER_LABELS: Record<TriggerType, string> = {
  EVENT: 'An event is tracked',
  SEGMENT_ENTRY: 'A contact enters a segment',
  MANUAL: 'Started through the API only',
};

/** What starts the workflow, and whether a contact may go through it again. */
export function TriggerPanel({ workflow, edits }: { workflow: Workflow; edits: WorkflowEdits }) {
  const projectId = useProjectId();
  const toast = useToast();
  const [type, setType] = useState<TriggerType>(workflow.triggerType);
  const [eventName, setEventName] = useState(workflow.triggerConfig.eventName ?? '');
  const [segmentId, setSegmentId] = useState(workflow.triggerConfig.segmentId ?? '');
  const [allowReentry, setAllowReentry] = useState(workflow.allowReentry);
  const events = useQuery({
    queryKey: ['project', projectId, 'events', 'names'],
    queryFn: () => unwrap(api.GET('/events/names')),
  });
  const segments = useQuery({
    queryKey: ['project', projectId, 'segments'],
    queryFn: () => unwrap(api.GET('/segments')),
  });

  return (
    <form
      aria-label="Trigger"
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        edits.patchWorkflow.mutate(
          {
            triggerType: type,
            triggerConfig:
              type === 'EVENT' ? { eventName } : type === 'SEGMENT_ENTRY' ? { segmentId } : {},
            allowReentry,
          },
          { onSuccess: () => toast('Trigger saved') },
        );
      }}
    >
      <h2 className="text-base font-semibold">Trigger</h2>
      <Select
        label="Starts when"
        value={type}
        onChange={(e) => setType(e.target.value as TriggerType)}
        options={TRIGGER_TYPES.map((t) => ({ value: t, label: TRIGGER_LABELS[t] }))}
      />
      {type === 'EVENT' ? (
        <>
          <Input
            label="Event name"
            list="trigger-event-names"
            value={eventName}
            onChange={(e) => setEventName(e.target.value)}
          />
          <datalist id="trigger-event-names">
            {(events.data?.names ?? []).map((n) => (
              <option key={n.name} value={n.name} />
            ))}
          </datalist>
        </>
      ) : null}
      {type === 'SEGMENT_ENTRY' ? (
        <Select
          label="Segment"
          value={segmentId}
          onChange={(e) => setSegmentId(e.target.value)}
          options={[
            { value: '', label: 'Choose a tracked segment' },
            ...(segments.data ?? []).map((s) => ({
              value: s.id,
              label: `${s.name}${s.trackMembership ? '' : ' (not tracked)'}`,
            })),
          ]}
        />
      ) : null}
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-accent"
          checked={allowReentry}
          onChange={(e) => setAllowReentry(e.target.checked)}
        />
        <span>
          <span className="font-medium">Allow re-entry</span>
          <span className="block text-muted">
            A contact may go through again once their last execution has ended.
          </span>
        </span>
      </label>
      {edits.patchWorkflow.isError ? <ErrorState error={edits.patchWorkflow.error} /> : null}
      <div className="flex justify-end">
        <Button type="submit" busy={edits.patchWorkflow.isPending}>
          Save trigger
        </Button>
      </div>
    </form>
  );
}

export function triggerLabel(workflow: Workflow): string {
  switch (workflow.triggerType) {
    case 'EVENT':
      return `When “${workflow.triggerConfig.eventName ?? ''}” is tracked`;
    case 'SEGMENT_ENTRY':
      return 'When a contact enters a segment';
    case 'MANUAL':
      return 'Started through the API';
  }
  return assertNever(workflow.triggerType, 'trigger type');
}
