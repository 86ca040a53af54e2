import type { EqualityOperator, Scalar } from '../ast.pure.js';
import { listOperand, scalarOperand } from '../operands.pure.js';
import { not } from '../sql-parts.pure.js';
import { looseEquals } from '../values.pure.js';
import type { ValueOperatorDefinition } from './operator-definition.pure.js';

const equalsAny = (stored: unknown, values: Scalar[]): boolean =>
  values.some((v) => looseEquals(stored, v));

/** Loose equality (values.pure.ts) with one value, or with any of a list. */
export const EQUALITY_OPERATOR_DEFINITIONS = {
  equals: {
    reads: 'value',
    operand: scalarOperand,
    evaluate: (stored, { value }) => equalsAny(stored, [value as Scalar]),
    compile: (sql, { value }) => sql.equalsAny([value as Scalar]),
  },
  notEquals: {
    reads: 'value',
    operand: scalarOperand,
    evaluate: (stored, { value }) => !equalsAny(stored, [value as Scalar]),
    compile: (sql, { value }) => not(sql.equalsAny([value as Scalar])),
  },
  in: {
    reads: 'value',
    operand: listOperand,
    evaluate: (stored, { value }) => equalsAny(stored, value as Scalar[]),
    compile: (sql, { value }) => sql.equalsAny(value as Scalar[]),
  },
  notIn: {
    reads: 'value',
    operand: listOperand,
    evaluate: (stored, { value }) => !equalsAny(stored, value as Scalar[]),
    compile: (sql, { value }) => not(sql.equalsAny(value as Scalar[])),
  },
} satisfies Record<EqualityOperator, ValueOperatorDefinition>;
