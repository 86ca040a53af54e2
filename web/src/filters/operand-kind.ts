import type { ConditionOperator } from '../../../domain/segments/filter/ast.pure';
import { assertNever } from '../../../domain/shared/assert-never.pure';

/**
 * The input a condition's value needs: none, one value (typed by the field), a list, a text, a
 * window (number and unit), or a whole count. A new operator fails to compile here until it has
 * an input.
 */
export type OperandKind = 'none' | 'value' | 'list' | 'text' | 'ordering' | 'window' | 'count';

export function operandKindOf(operator: ConditionOperator): OperandKind {
  switch (operator) {
    case 'exists':
    case 'notExists':
    case 'triggered':
    case 'notTriggered':
    case 'memberOf':
    case 'notMemberOf':
      return 'none';
    case 'equals':
    case 'notEquals':
      return 'value';
    case 'in':
    case 'notIn':
      return 'list';
    case 'contains':
    case 'notContains':
    case 'startsWith':
    case 'endsWith':
      return 'text';
    case 'greaterThan':
    case 'lessThan':
    case 'greaterThanOrEqual':
    case 'lessThanOrEqual':
      return 'ordering';
    case 'within':
    case 'olderThan':
    case 'triggeredWithin':
    case 'notTriggeredWithin':
    case 'triggeredOlderThan':
      return 'window';
    case 'triggeredCount':
      return 'count';
  }
  return assertNever(operator, 'filter operator');
}

/** How an operator reads in the builder. */
export const OPERATOR_LABELS: Record<ConditionOperator, string> = {
  equals: 'equals',
  notEquals: 'does not equal',
  in: 'is one of',
  notIn: 'is none of',
  contains: 'contains',
  notContains: 'does not contain',
  startsWith: 'starts with',
  endsWith: 'ends with',
  greaterThan: 'is greater than',
  lessThan: 'is less than',
  greaterThanOrEqual: 'is at least',
  lessThanOrEqual: 'is at most',
  exists: 'is set',
  notExists: 'is not set',
  within: 'is within the last',
  olderThan: 'is older than',
  triggered: 'happened',
  notTriggered: 'never happened',
  triggeredWithin: 'happened in the last',
  notTriggeredWithin: 'did not happen in the last',
  triggeredOlderThan: 'last happened over',
  triggeredCount: 'happened at least (times)',
  memberOf: 'is a member',
  notMemberOf: 'is not a member',
};
