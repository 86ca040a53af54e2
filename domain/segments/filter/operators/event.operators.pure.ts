import { windowStart, type Condition, type EventOperator } from '../ast.pure.js';
import { countOperand, noOperand, windowOperand } from '../operands.pure.js';
import type { EventOperatorDefinition } from './operator-definition.pure.js';

// A contact's events of one name: any at all, any in the window of `value` units ending now,
// or at least `value` of them.

const startOf = (condition: Condition, now: Date): Date =>
  windowStart(now, condition.value as number, condition.unit ?? 'days');

const anySince = (times: readonly number[], since: Date): boolean =>
  times.some((t) => t >= since.getTime());

export const EVENT_OPERATOR_DEFINITIONS = {
  triggered: {
    reads: 'events',
    operand: noOperand,
    evaluate: (times) => times.length > 0,
    compile: (events) => events.exists(),
  },
  notTriggered: {
    reads: 'events',
    operand: noOperand,
    evaluate: (times) => times.length === 0,
    compile: (events) => `NOT ${events.exists()}`,
  },
  triggeredWithin: {
    reads: 'events',
    operand: windowOperand,
    evaluate: (times, condition, now) => anySince(times, startOf(condition, now)),
    compile: (events, condition, now) => events.exists(startOf(condition, now)),
  },
  notTriggeredWithin: {
    reads: 'events',
    operand: windowOperand,
    evaluate: (times, condition, now) => !anySince(times, startOf(condition, now)),
    compile: (events, condition, now) => `NOT ${events.exists(startOf(condition, now))}`,
  },
  triggeredOlderThan: {
    reads: 'events',
    operand: windowOperand,
    evaluate: (times, condition, now) =>
      times.length > 0 && !anySince(times, startOf(condition, now)),
    compile: (events, condition, now) =>
      `(${events.exists()} AND NOT ${events.exists(startOf(condition, now))})`,
  },
  triggeredCount: {
    reads: 'events',
    operand: countOperand,
    evaluate: (times, { value }) => times.length >= (value as number),
    compile: (events, { value }, _now, params) => `${events.count} >= ${params.add(value, 'int')}`,
  },
} satisfies Record<EventOperator, EventOperatorDefinition>;
