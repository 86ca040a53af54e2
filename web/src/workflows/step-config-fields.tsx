import { useQuery } from '@tanstack/react-query';
import {
  DELAY_UNITS,
  WEBHOOK_METHODS,
  type StepType,
} from '../../../domain/automation/step-type.pure';
import { assertNever } from '../../../domain/shared/assert-never.pure';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Input } from '../components/input';
import { Select } from '../components/select';
import { ConditionRow } from '../filters/condition-row';
import type { Condition } from '../filters/filter-model';
import type { FieldOption } from '../filters/use-filter-fields';
import { templateListQuery } from '../templates/template-list-query';

export type Config = Record<string, unknown>;

/** A config every step type accepts as a start (the API checks it in full on save). */
export function initialConfig(type: StepType): Config {
  switch (type) {
    case 'SEND_EMAIL':
      return { templateId: '' };
    case 'DELAY':
      return { amount: 1, unit: 'hours' };
    case 'WAIT_FOR_EVENT':
      return { eventName: '' };
    case 'CONDITION':
      return { field: 'email', operator: 'exists' };
    case 'WEBHOOK':
      return { url: 'https://', method: 'POST' };
    case 'UPDATE_CONTACT':
      return { data: {} };
    case 'ADD_TAG':
      return { tag: '' };
    case 'EXIT':
      return {};
  }
  return assertNever(type, 'step type');
}

const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
const numberOr = (text: string): number | string =>
  text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

/** The inputs a step type's config needs, each with the API's error for its `config.<key>`. */
export function StepConfigFields({
  type,
  config,
  onChange,
  errorOf,
  workflowFields,
}: {
  type: StepType;
  config: Config;
  onChange: (next: Config) => void;
  errorOf: (key: string) => string | undefined;
  workflowFields: FieldOption[];
}) {
  const projectId = useProjectId();
  const templates = useQuery({
    ...templateListQuery(projectId),
    enabled: type === 'SEND_EMAIL',
  });
  const events = useQuery({
    queryKey: ['project', projectId, 'events', 'names'],
    queryFn: () => unwrap(api.GET('/events/names')),
    enabled: type === 'WAIT_FOR_EVENT',
  });
  const set = (key: string, value: unknown) => {
    const next = { ...config };
    if (value === undefined || value === '') delete next[key];
    else next[key] = value;
    onChange(next);
  };

  switch (type) {
    case 'SEND_EMAIL':
      return (
        <Select
          label="Template"
          value={str(config.templateId)}
          onChange={(e) => set('templateId', e.target.value)}
          options={[
            { value: '', label: 'Choose a template' },
            ...(templates.data?.templates ?? []).map((t) => ({ value: t.id, label: t.name })),
          ]}
        />
      );
    case 'DELAY':
      return (
        <div className="grid grid-cols-2 gap-3">
          <Input
            label="Wait for"
            type="number"
            min={1}
            value={str(config.amount)}
            onChange={(e) => set('amount', numberOr(e.target.value))}
            error={errorOf('amount')}
          />
          <Select
            label="Unit"
            value={str(config.unit) || 'hours'}
            onChange={(e) => set('unit', e.target.value)}
            options={DELAY_UNITS.map((u) => ({ value: u, label: u }))}
          />
        </div>
      );
    case 'WAIT_FOR_EVENT':
      return (
        <div className="flex flex-col gap-3">
          <Input
            label="Event"
            list="workflow-event-names"
            value={str(config.eventName)}
            onChange={(e) => set('eventName', e.target.value)}
            error={errorOf('eventName')}
          />
          <datalist id="workflow-event-names">
            {(events.data?.names ?? []).map((n) => (
              <option key={n.name} value={n.name} />
            ))}
          </datalist>
          <Input
            label="Time out after (seconds, optional)"
            type="number"
            min={1}
            value={str(config.timeoutSeconds)}
            onChange={(e) => set('timeoutSeconds', numberOr(e.target.value))}
            error={errorOf('timeoutSeconds')}
            hint="With a timeout the step has a timeout branch."
          />
        </div>
      );
    case 'CONDITION':
      return (
        <div className="flex flex-col gap-1">
          <ConditionRow
            label="Condition"
            scope="workflow"
            condition={config as unknown as Condition}
            options={workflowFields}
            errors={['field', 'operator', 'value', 'unit']
              .map((k) => errorOf(k))
              .filter((m): m is string => Boolean(m))}
            onChange={(next) => onChange({ ...next })}
            onRemove={() => onChange(initialConfig('CONDITION'))}
          />
          <p className="text-xs text-muted">
            Reads the contact (fresh), event.&lt;key&gt; (the trigger event&apos;s data) or
            context.&lt;key&gt;.
          </p>
        </div>
      );
    case 'WEBHOOK':
      return (
        <div className="flex flex-col gap-3">
          <Input
            label="URL"
            value={str(config.url)}
            onChange={(e) => set('url', e.target.value)}
            error={errorOf('url')}
          />
          <Select
            label="Method"
            value={str(config.method) || 'POST'}
            onChange={(e) => set('method', e.target.value)}
            options={WEBHOOK_METHODS.map((m) => ({ value: m, label: m }))}
          />
          <Input
            label="Body (optional; a template)"
            value={
              typeof config.body === 'string' ? config.body : JSON.stringify(config.body ?? '')
            }
            onChange={(e) => set('body', e.target.value)}
            error={errorOf('body')}
          />
        </div>
      );
    case 'UPDATE_CONTACT':
      return (
        <JsonField
          label="Data to set (JSON; null deletes a key)"
          value={config.data ?? {}}
          error={errorOf('data')}
          onChange={(data) => set('data', data)}
        />
      );
    case 'ADD_TAG':
      return (
        <Input
          label="Tag"
          value={str(config.tag)}
          onChange={(e) => set('tag', e.target.value)}
          error={errorOf('tag')}
        />
      );
    case 'EXIT':
      return (
        <Input
          label="Reason (optional)"
          value={str(config.reason)}
          onChange={(e) => set('reason', e.target.value)}
          error={errorOf('reason')}
        />
      );
  }
  return assertNever(type, 'step type');
}

function JsonField({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: unknown;
  error?: string;
  onChange: (value: unknown) => void;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor="step-json" className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id="step-json"
        defaultValue={JSON.stringify(value, null, 2)}
        onChange={(e) => {
          try {
            onChange(JSON.parse(e.target.value));
          } catch {
            onChange(e.target.value);
          }
        }}
        aria-invalid={error ? true : undefined}
        className="min-h-28 rounded-md border border-line bg-panel p-2 font-mono text-xs aria-invalid:border-danger"
      />
      {error ? <p className="text-xs text-danger">{error}</p> : null}
    </div>
  );
}
