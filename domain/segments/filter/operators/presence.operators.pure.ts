import type { PresenceOperator } from '../ast.pure.js';
import { noOperand } from '../operands.pure.js';
import { not } from '../sql-parts.pure.js';
import type { ValueOperatorDefinition } from './operator-definition.pure.js';

// A value is there unless absent or null; a standard column always is.

const isThere = (stored: unknown): boolean => stored !== undefined && stored !== null;

export const PRESENCE_OPERATOR_DEFINITIONS = {
  exists: {
    reads: 'value',
    operand: noOperand,
    evaluate: (stored) => isThere(stored),
    compile: (sql) => sql.present ?? 'TRUE',
  },
  notExists: {
    reads: 'value',
    operand: noOperand,
    evaluate: (stored) => !isThere(stored),
    compile: (sql) => (sql.present ? not(sql.present) : 'FALSE'),
  },
} satisfies Record<PresenceOperator, ValueOperatorDefinition>;
