import type { Condition, FieldRef } from '../ast.pure.js';
import type { ProblemPath, Problems } from '../problems.pure.js';
import type { EventsSql, Params, ValueSql } from '../sql-parts.pure.js';

/** What an operator compares with, in its canonical form. */
export type Operand = Pick<Condition, 'value' | 'unit'>;

export interface OperandInput {
  field: FieldRef;
  /** The condition as given (its `value` and `unit` unchecked). */
  condition: Record<string, unknown>;
  path: ProblemPath;
  problems: Problems;
}

interface OperatorBase {
  /** Checks the condition's operand and puts it in its canonical form (or reports problems). */
  operand: (input: OperandInput) => Operand | undefined;
}

/** Tests a field's value: a standard column or a data value. */
export interface ValueOperatorDefinition extends OperatorBase {
  reads: 'value';
  /** In memory: `stored` is the field's value (a Date for the date columns). */
  evaluate: (stored: unknown, condition: Condition, now: Date) => boolean;
  /** In SQL: a boolean expression over the value's readings. */
  compile: (value: ValueSql, condition: Condition, now: Date, params: Params) => string;
}

/** Tests a contact's events of one name (`event.<name>`). */
export interface EventOperatorDefinition extends OperatorBase {
  reads: 'events';
  /** In memory: `times` are the events' times (ms since the epoch). */
  evaluate: (times: readonly number[], condition: Condition, now: Date) => boolean;
  compile: (events: EventsSql, condition: Condition, now: Date, params: Params) => string;
}

/** Tests membership of a segment (`segment.<id>`). */
export interface MembershipOperatorDefinition extends OperatorBase {
  reads: 'membership';
  evaluate: (member: boolean) => boolean;
  /** `member` is the SQL expression of membership. */
  compile: (member: string) => string;
}

/** One operator of the filter language: its operand and both back ends. */
export type OperatorDefinition =
  ValueOperatorDefinition | EventOperatorDefinition | MembershipOperatorDefinition;
