import type { ConditionOperator } from './ast.pure.js';
import { AGE_OPERATOR_DEFINITIONS } from './operators/age.operators.pure.js';
import { EQUALITY_OPERATOR_DEFINITIONS } from './operators/equality.operators.pure.js';
import { EVENT_OPERATOR_DEFINITIONS } from './operators/event.operators.pure.js';
import type { OperatorDefinition } from './operators/operator-definition.pure.js';
import { ORDERING_OPERATOR_DEFINITIONS } from './operators/ordering.operators.pure.js';
import { PRESENCE_OPERATOR_DEFINITIONS } from './operators/presence.operators.pure.js';
import { SEGMENT_OPERATOR_DEFINITIONS } from './operators/segment.operators.pure.js';
import { TEXT_OPERATOR_DEFINITIONS } from './operators/text.operators.pure.js';

/**
 * Every operator of the filter language with its operand parser and both back ends: parsing
 * (parse.pure.ts), in memory (evaluate.pure.ts) and SQL (compile-sql.pure.ts) read this table.
 * A new operator is a vocabulary entry in ast.pure.ts, an entry here (in its family's module;
 * one missing does not compile) and the fields it applies to (OPERATORS_BY_FIELD in
 * parse.pure.ts; test/database/filter-backends.test.ts fails until it splits contacts there).
 */
export const FILTER_OPERATORS = {
  ...EQUALITY_OPERATOR_DEFINITIONS,
  ...TEXT_OPERATOR_DEFINITIONS,
  ...ORDERING_OPERATOR_DEFINITIONS,
  ...PRESENCE_OPERATOR_DEFINITIONS,
  ...AGE_OPERATOR_DEFINITIONS,
  ...EVENT_OPERATOR_DEFINITIONS,
  ...SEGMENT_OPERATOR_DEFINITIONS,
} satisfies Record<ConditionOperator, OperatorDefinition>;
