import type { SegmentOperator } from '../ast.pure.js';
import { noOperand } from '../operands.pure.js';
import { not } from '../sql-parts.pure.js';
import type { MembershipOperatorDefinition } from './operator-definition.pure.js';

export const SEGMENT_OPERATOR_DEFINITIONS = {
  memberOf: {
    reads: 'membership',
    operand: noOperand,
    evaluate: (member) => member,
    compile: (member) => member,
  },
  notMemberOf: {
    reads: 'membership',
    operand: noOperand,
    evaluate: (member) => !member,
    compile: (member) => not(member),
  },
} satisfies Record<SegmentOperator, MembershipOperatorDefinition>;
