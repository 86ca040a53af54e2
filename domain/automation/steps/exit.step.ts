import { z } from 'zod';
import { finishExecution } from '../../../db/sql/executions.sql.js';
import type { StepDefinition } from './step-definition.js';

/** EXIT: ends the execution EXITED with its reason, recording itself as the last step. */
export const exitStep: StepDefinition<'EXIT'> = {
  help: '`{reason?}`',
  config: z.strictObject({ reason: z.string().trim().max(500).optional() }),
  async run({ sql, ref, seq, step, close, scope }) {
    const ended = await finishExecution(sql, {
      executionId: ref.executionId,
      status: 'EXITED',
      close,
      exitStep: { seq, stepId: step.id },
      exitReason: step.config.reason ?? null,
      context: scope.context,
    });
    return ended ? { ended: 'EXITED' } : { inactive: true };
  },
};
