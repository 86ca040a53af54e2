import { escapeLike } from '../../../shared/like-pattern.pure.js';
import type { Condition, TextOperator } from '../ast.pure.js';
import { textOperand } from '../operands.pure.js';
import { not, type Params, type ValueSql } from '../sql-parts.pure.js';
import { foldCase } from '../values.pure.js';
import type { ValueOperatorDefinition } from './operator-definition.pure.js';

// A text value found in the stored text, ignoring case; a stored value that is not text
// contains nothing (so notContains holds for it).

type Found = (stored: string, text: string) => boolean;

function found(stored: unknown, condition: Condition, test: Found): boolean {
  return typeof stored === 'string' && test(foldCase(stored), foldCase(condition.value as string));
}

function like(
  sql: ValueSql,
  condition: Condition,
  params: Params,
  pattern: (text: string) => string,
): string | undefined {
  const text = pattern(escapeLike(foldCase(condition.value as string)));
  return sql.text && `${sql.text} LIKE ${params.add(text, 'text')} ESCAPE '\\'`;
}

const finds = (test: Found, pattern: (text: string) => string): ValueOperatorDefinition => ({
  reads: 'value',
  operand: textOperand,
  evaluate: (stored, condition) => found(stored, condition, test),
  compile: (sql, condition, _now, params) => like(sql, condition, params, pattern) ?? 'FALSE',
});

const contains: Found = (stored, text) => stored.includes(text);
const anywhere = (text: string): string => `%${text}%`;

export const TEXT_OPERATOR_DEFINITIONS = {
  contains: finds(contains, anywhere),
  notContains: {
    reads: 'value',
    operand: textOperand,
    evaluate: (stored, condition) => !found(stored, condition, contains),
    compile: (sql, condition, _now, params) => {
      const match = like(sql, condition, params, anywhere);
      return match ? not(match) : 'TRUE';
    },
  },
  startsWith: finds(
    (stored, text) => stored.startsWith(text),
    (text) => `${text}%`,
  ),
  endsWith: finds(
    (stored, text) => stored.endsWith(text),
    (text) => `%${text}`,
  ),
} satisfies Record<TextOperator, ValueOperatorDefinition>;
