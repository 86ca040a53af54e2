import { validationError } from '../../shared/errors.js';
import { toFieldErrors } from '../../shared/zod-problems.js';
import type { StepConfig } from '../step-config.pure.js';
import type { StepType } from '../step-type.pure.js';
import { addTagStep } from './add-tag.step.js';
import { conditionStep } from './condition.step.js';
import { delayStep } from './delay.step.js';
import { exitStep } from './exit.step.js';
import { sendEmailStep } from './send-email.step.js';
import type { StepDefinition, StepDefinitions } from './step-definition.js';
import { updateContactStep } from './update-contact.step.js';
import { waitForEventStep } from './wait-for-event.step.js';
import { webhookStep } from './webhook.step.js';

/**
 * The step registry's I/O half: each step type's config schema and run (its pure half, run mode
 * and branches, is STEP_KINDS in step-type.pure.ts, which the execution workflow reads).
 */
export const STEP_DEFINITIONS = {
  SEND_EMAIL: sendEmailStep,
  DELAY: delayStep,
  WAIT_FOR_EVENT: waitForEventStep,
  CONDITION: conditionStep,
  WEBHOOK: webhookStep,
  UPDATE_CONTACT: updateContactStep,
  ADD_TAG: addTagStep,
  EXIT: exitStep,
} satisfies StepDefinitions;

/** The definition of `type`, for code that handles every type alike. */
export const definitionOf = (type: StepType): StepDefinition<StepType> =>
  STEP_DEFINITIONS[type] as StepDefinition<StepType>;

/** A step config checked for its type and put in canonical form; a 422 at `config.*` otherwise. */
export function parseStepConfig(type: StepType, input: unknown): StepConfig {
  const parsed = definitionOf(type).config.safeParse(input ?? {}, { reportInput: true });
  if (!parsed.success) throw validationError(toFieldErrors(parsed.error.issues, 'config'));
  return parsed.data;
}
