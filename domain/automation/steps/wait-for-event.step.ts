import { z } from 'zod';
import { canonicalEventName } from '../../events/event-names.pure.js';
import { MAX_WAIT_SECONDS, type StepDefinition } from './step-definition.js';

/**
 * WAIT_FOR_EVENT: the execution workflow waits for an event signal recorded after the wait
 * began, or its timeout (run mode `wait`); nothing to run here.
 */
export const waitForEventStep: StepDefinition<'WAIT_FOR_EVENT'> = {
  help: '`{eventName, timeoutSeconds?}`',
  config: z.strictObject({
    eventName: z.string().trim().min(1).max(255).transform(canonicalEventName),
    timeoutSeconds: z.number().int().min(1).max(MAX_WAIT_SECONDS).optional(),
  }),
};
