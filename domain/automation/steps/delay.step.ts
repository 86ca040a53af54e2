import { z } from 'zod';
import { DELAY_UNITS, DELAY_UNIT_MS } from '../step-type.pure.js';
import { MAX_WAIT_SECONDS, type StepDefinition } from './step-definition.js';

/** DELAY: a durable timer of the execution workflow (run mode `timer`); nothing to run here. */
export const delayStep: StepDefinition<'DELAY'> = {
  help: '`{amount, unit: seconds|minutes|hours|days}`',
  config: z
    .strictObject({ amount: z.number().int().min(1), unit: z.enum(DELAY_UNITS) })
    .refine((c) => c.amount * DELAY_UNIT_MS[c.unit] <= MAX_WAIT_SECONDS * 1000, {
      message: 'A delay is at most 365 days',
      path: ['amount'],
      params: { code: 'too_big' },
    }),
};
