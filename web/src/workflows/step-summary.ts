import type { StepType } from '../../../domain/automation/step-type.pure';
import { assertNever } from '../../../domain/shared/assert-never.pure';
import type { Step } from './workflow-queries';

export const STEP_LABELS: Record<StepType, string> = {
  SEND_EMAIL: 'Send email',
  DELAY: 'Delay',
  WAIT_FOR_EVENT: 'Wait for event',
  CONDITION: 'Condition',
  WEBHOOK: 'Webhook',
  UPDATE_CONTACT: 'Update contact',
  ADD_TAG: 'Add tag',
  EXIT: 'Exit',
};

const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : JSON.stringify(value);

/** One line saying what a step does, from its config. */
export function stepSummary(step: Step, templateName?: string): string {
  const c = step.config;
  switch (step.type) {
    case 'SEND_EMAIL':
      return `Template: ${templateName ?? text(c.templateId)}`;
    case 'DELAY':
      return `Wait ${text(c.amount)} ${text(c.unit)}`;
    case 'WAIT_FOR_EVENT':
      return `Until "${text(c.eventName)}"${c.timeoutSeconds ? `, ${text(c.timeoutSeconds)} s at most` : ''}`;
    case 'CONDITION':
      return `${text(c.field)} ${text(c.operator)}${c.value === undefined ? '' : ` ${text(c.value)}`}${c.unit ? ` ${text(c.unit)}` : ''}`;
    case 'WEBHOOK':
      return `${text(c.method ?? 'POST')} ${text(c.url)}`;
    case 'UPDATE_CONTACT':
      return [
        c.data ? `data ${Object.keys(c.data as object).join(', ')}` : '',
        c.subscribed === undefined ? '' : `subscribed ${text(c.subscribed)}`,
      ]
        .filter(Boolean)
        .join('; ');
    case 'ADD_TAG':
      return `Tag "${text(c.tag)}"`;
    case 'EXIT':
      return c.reason ? `Reason: ${text(c.reason)}` : 'Ends the execution';
  }
  return assertNever(step.type, 'step type');
}
