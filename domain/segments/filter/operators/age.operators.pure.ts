import { windowStart, type AgeOperator, type Condition } from '../ast.pure.js';
import { windowOperand } from '../operands.pure.js';
import { timestampOf } from '../values.pure.js';
import type { ValueOperatorDefinition } from './operator-definition.pure.js';

// A date (or a value that reads as one) against the window of `value` units ending now.

const startOf = (condition: Condition, now: Date): Date =>
  windowStart(now, condition.value as number, condition.unit ?? 'days');

const instantOf = (stored: unknown): Date | undefined =>
  stored instanceof Date ? stored : timestampOf(stored);

export const AGE_OPERATOR_DEFINITIONS = {
  within: {
    reads: 'value',
    operand: windowOperand,
    evaluate: (stored, condition, now) => {
      const at = instantOf(stored)?.getTime();
      return at !== undefined && at >= startOf(condition, now).getTime() && at <= now.getTime();
    },
    // One range test reads the stored date once.
    compile: (sql, condition, now, params) =>
      sql.timestamp
        ? `tstzrange(${params.add(startOf(condition, now), 'timestamptz')}, ${params.add(now, 'timestamptz')}, '[]') @> ${sql.timestamp}`
        : 'FALSE',
  },
  olderThan: {
    reads: 'value',
    operand: windowOperand,
    evaluate: (stored, condition, now) => {
      const at = instantOf(stored)?.getTime();
      return at !== undefined && at < startOf(condition, now).getTime();
    },
    compile: (sql, condition, now, params) =>
      sql.timestamp
        ? `${sql.timestamp} < ${params.add(startOf(condition, now), 'timestamptz')}`
        : 'FALSE',
  },
} satisfies Record<AgeOperator, ValueOperatorDefinition>;
