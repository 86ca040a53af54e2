// The filter language of segments, campaign audiences and workflow CONDITION steps: one AST,
// evaluated in memory (evaluate.pure.ts) and compiled to SQL (compile-sql.pure.ts), held equal
// by a property test.

import { timeUnits, unitMsOf } from '../../shared/time-unit.pure.js';

/** How a group joins its conditions. */
export const FILTER_LOGICS = ['AND', 'OR'] as const;
export type FilterLogic = (typeof FILTER_LOGICS)[number];

/**
 * The units of a time window (`within`, `olderThan`, `triggeredWithin`...): a subset of the one
 * time-unit vocabulary.
 */
export const WINDOW_UNITS = timeUnits('minutes', 'hours', 'days');
export type WindowUnit = (typeof WINDOW_UNITS)[number];
export const WINDOW_UNIT_MS = unitMsOf(WINDOW_UNITS);

/** Order a number or a date against the condition's `value`. */
export const ORDERING_OPERATORS = [
  'greaterThan',
  'lessThan',
  'greaterThanOrEqual',
  'lessThanOrEqual',
] as const;
export type OrderingOperator = (typeof ORDERING_OPERATORS)[number];

/** A date field against a window ending now (`value` units of `unit`). */
export const AGE_OPERATORS = ['within', 'olderThan'] as const;
export type AgeOperator = (typeof AGE_OPERATORS)[number];

/** Whether a field has a value at all. */
export const PRESENCE_OPERATORS = ['exists', 'notExists'] as const;
export type PresenceOperator = (typeof PRESENCE_OPERATORS)[number];

/** Match a text value against the condition's text, ignoring case. */
export const TEXT_OPERATORS = ['contains', 'notContains', 'startsWith', 'endsWith'] as const;
export type TextOperator = (typeof TEXT_OPERATORS)[number];

/** Membership of another segment (`segment.<id>`). */
export const SEGMENT_OPERATORS = ['memberOf', 'notMemberOf'] as const;
export type SegmentOperator = (typeof SEGMENT_OPERATORS)[number];

/** Compare a field's value with the condition's `value`. */
export const VALUE_OPERATORS = [
  'equals',
  'notEquals',
  ...TEXT_OPERATORS,
  ...ORDERING_OPERATORS,
  'in',
  'notIn',
] as const;
export type ValueOperator = (typeof VALUE_OPERATORS)[number];

/** Loose equality with the condition's `value` (one value, or any of a list). */
export type EqualityOperator = Exclude<ValueOperator, TextOperator | OrderingOperator>;

/** A contact's events of one name (`event.<name>`). */
export const EVENT_OPERATORS = [
  'triggered',
  'notTriggered',
  'triggeredWithin',
  'notTriggeredWithin',
  'triggeredOlderThan',
  'triggeredCount',
] as const;
export type EventOperator = (typeof EVENT_OPERATORS)[number];

export const CONDITION_OPERATORS = [
  ...VALUE_OPERATORS,
  ...PRESENCE_OPERATORS,
  ...AGE_OPERATORS,
  ...EVENT_OPERATORS,
  ...SEGMENT_OPERATORS,
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** A value a condition compares with (a list for `in` and `notIn`). */
export type Scalar = string | number | boolean;

export interface Condition {
  /** `email`, `subscribed`, `createdAt`, `updatedAt`, `data.<path>`, `event.<name>`, `segment.<id>`. */
  field: string;
  operator: ConditionOperator;
  value?: Scalar | Scalar[];
  unit?: WindowUnit;
}

export interface Filter {
  operator: FilterLogic;
  conditions: (Condition | Filter)[];
}

export const MAX_FILTER_DEPTH = 5;

export const isFilter = (node: Condition | Filter): node is Filter => 'conditions' in node;

/** The contact's own columns a filter can read. */
export const STANDARD_FIELDS = ['email', 'subscribed', 'createdAt', 'updatedAt'] as const;
export type StandardField = (typeof STANDARD_FIELDS)[number];

/**
 * Where a condition is read. In a segment (and a campaign audience) `event.<name>` means the
 * contact's events of that name; in a workflow's CONDITION step `event.<path>` is the data of
 * the event that triggered the execution, and `context.<path>` the execution's context.
 */
export const FILTER_SCOPES = ['segment', 'workflow'] as const;
export type FilterScope = (typeof FILTER_SCOPES)[number];

/** What a condition's `field` names. */
export type FieldRef =
  | { kind: 'email' }
  | { kind: 'subscribed' }
  | { kind: 'date'; column: Extract<StandardField, 'createdAt' | 'updatedAt'> }
  | { kind: 'data'; path: string[] }
  | { kind: 'event'; name: string }
  | { kind: 'segment'; id: string }
  | { kind: 'eventData'; path: string[] }
  | { kind: 'context'; path: string[] };

/** The operators each kind of field takes (the parser refuses others; the dashboard offers these). */
export const OPERATORS_BY_FIELD: Record<FieldRef['kind'], readonly ConditionOperator[]> = {
  email: ['equals', 'notEquals', ...TEXT_OPERATORS, 'in', 'notIn', ...PRESENCE_OPERATORS],
  subscribed: ['equals', 'notEquals', ...PRESENCE_OPERATORS],
  date: [...ORDERING_OPERATORS, ...AGE_OPERATORS, ...PRESENCE_OPERATORS],
  data: [...VALUE_OPERATORS, ...PRESENCE_OPERATORS, ...AGE_OPERATORS],
  event: EVENT_OPERATORS,
  segment: SEGMENT_OPERATORS,
  eventData: [...VALUE_OPERATORS, ...PRESENCE_OPERATORS, ...AGE_OPERATORS],
  context: [...VALUE_OPERATORS, ...PRESENCE_OPERATORS, ...AGE_OPERATORS],
};

const pathOf = (rest: string): string[] | undefined => {
  const path = rest.split('.');
  return path.every((key) => key !== '') ? path : undefined;
};

/** Reads a field name; undefined when it names nothing a filter of `scope` can read. */
export function parseField(field: string, scope: FilterScope = 'segment'): FieldRef | undefined {
  if (field === 'email') return { kind: 'email' };
  if (field === 'subscribed') return { kind: 'subscribed' };
  if (field === 'createdAt' || field === 'updatedAt') return { kind: 'date', column: field };
  const dot = field.indexOf('.');
  if (dot <= 0) return undefined;
  const head = field.slice(0, dot);
  const rest = field.slice(dot + 1);
  if (rest === '') return undefined;
  const path = pathOf(rest);
  if (head === 'data') return path && { kind: 'data', path };
  if (scope === 'workflow') {
    if (head === 'event') return path && { kind: 'eventData', path };
    if (head === 'context') return path && { kind: 'context', path };
    return undefined;
  }
  if (head === 'event') return { kind: 'event', name: rest };
  if (head === 'segment') return { kind: 'segment', id: rest };
  return undefined;
}

/** The window's start: `value` units before `now`. */
export function windowStart(now: Date, value: number, unit: WindowUnit): Date {
  return new Date(now.getTime() - value * WINDOW_UNIT_MS[unit]);
}
