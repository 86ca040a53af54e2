import { z } from 'zod';
import { parseFilter, reportFilterProblems } from './parse.pure.js';

const EXAMPLE = {
  operator: 'AND',
  conditions: [
    { field: 'data.plan', operator: 'equals', value: 'pro' },
    { field: 'event.purchase', operator: 'triggeredWithin', value: 30, unit: 'days' },
    {
      operator: 'OR',
      conditions: [
        { field: 'data.age', operator: 'greaterThanOrEqual', value: 30 },
        { field: 'subscribed', operator: 'equals', value: true },
      ],
    },
  ],
};

/**
 * A filter of the segments language (domain/segments/filter), in our shape or Plunk's, checked
 * in full: every problem is a field error at its path (`filters.conditions.2.operator`).
 */
export const filterInput = z
  .unknown()
  .transform((input, ctx) => {
    const parsed = parseFilter(input);
    if ('filter' in parsed) return parsed.filter;
    reportFilterProblems(ctx, parsed.problems);
    return z.NEVER;
  })
  .meta({
    description:
      '`{operator: AND|OR, conditions: [condition | group]}`, groups nesting 5 deep at most. A ' +
      'condition is `{field, operator, value?, unit?}`: fields `email`, `subscribed`, ' +
      '`createdAt`, `updatedAt`, `data.<path>`, `event.<name>`, `segment.<id>`; operators and ' +
      "their values as docs/api.md lists. Plunk's `{logic, groups: [{filters, conditions?}]}` " +
      'is accepted and converted.',
    examples: [EXAMPLE],
  });
