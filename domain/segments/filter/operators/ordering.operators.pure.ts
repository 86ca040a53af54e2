import type { OrderingOperator } from '../ast.pure.js';
import { boundOperand } from '../operands.pure.js';
import { numberOf, parseTimestamp, timestampOf } from '../values.pure.js';
import type { ValueOperatorDefinition } from './operator-definition.pure.js';

// A number bound orders a value that reads as a number; a date bound (ISO text) orders a date
// or a value that reads as one. The SQL back end also reads several number bounds ANDed on one
// data field as one range (compile-sql.pure.ts).

const bound = (
  holds: (left: number, right: number) => boolean,
  sign: string,
): ValueOperatorDefinition => ({
  reads: 'value',
  operand: boundOperand,
  evaluate: (stored, { value }) => {
    if (typeof value === 'number') {
      const number = numberOf(stored);
      return number !== undefined && holds(number, value);
    }
    const at = stored instanceof Date ? stored : timestampOf(stored);
    const limit = parseTimestamp(value as string);
    return at !== undefined && limit !== undefined && holds(at.getTime(), limit.getTime());
  },
  compile: (sql, { value }, _now, params) => {
    if (typeof value === 'number') {
      return sql.number ? `${sql.number} ${sign} ${params.add(value, 'numeric')}` : 'FALSE';
    }
    const limit = parseTimestamp(value as string);
    return sql.timestamp && limit
      ? `${sql.timestamp} ${sign} ${params.add(limit, 'timestamptz')}`
      : 'FALSE';
  },
});

export const ORDERING_OPERATOR_DEFINITIONS = {
  greaterThan: bound((left, right) => left > right, '>'),
  lessThan: bound((left, right) => left < right, '<'),
  greaterThanOrEqual: bound((left, right) => left >= right, '>='),
  lessThanOrEqual: bound((left, right) => left <= right, '<='),
} satisfies Record<OrderingOperator, ValueOperatorDefinition>;
