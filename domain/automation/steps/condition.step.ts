import { z } from 'zod';
import { findContact } from '../../../db/sql/contacts.sql.js';
import { evaluateCondition } from '../../segments/filter/evaluate.pure.js';
import { parseWorkflowCondition, reportFilterProblems } from '../../segments/filter/parse.pure.js';
import type { StepDefinition } from './step-definition.js';

/**
 * CONDITION: one condition of the filter language, applied to the contact read fresh and to the
 * workflow scope (`event.*`, `context.*`); leaves by "yes" or "no".
 */
export const conditionStep: StepDefinition<'CONDITION'> = {
  help: '`{field, operator, value?, unit?}` over contact fields, `data.*`, `event.*` (the trigger event data) and `context.*`',
  config: z.unknown().transform((input, ctx) => {
    const parsed = parseWorkflowCondition(input);
    if ('condition' in parsed) return parsed.condition;
    reportFilterProblems(ctx, parsed.problems);
    return z.NEVER;
  }),
  async run({ sql, ref, step, scope }) {
    const contact = await findContact(sql, { projectId: ref.projectId, contactId: ref.contactId });
    if (!contact) return { error: 'The contact no longer exists' };
    const matched = evaluateCondition(
      step.config,
      {
        email: contact.email,
        subscribed: contact.subscribed,
        createdAt: new Date(contact.created_at),
        updatedAt: new Date(contact.updated_at),
        data: contact.data,
        events: [],
        staticSegments: new Set(),
        eventData: scope.trigger?.data ?? {},
        context: scope.context,
      },
      { now: new Date(), segments: new Map(), scope: 'workflow' },
    );
    return { result: { matched }, branch: matched ? 'yes' : 'no' };
  },
};
