import {
  isFilter,
  parseField,
  windowStart,
  type Condition,
  type Filter,
  type FilterScope,
  type OrderingOperator,
  type Scalar,
} from './ast.pure.js';
import {
  foldCase,
  looseEquals,
  numberOf,
  parseTimestamp,
  timestampOf,
  valueAt,
} from './values.pure.js';

/** A contact as a filter sees it. */
export interface FilterSubject {
  email: string;
  subscribed: boolean;
  createdAt: Date;
  updatedAt: Date;
  data: Record<string, unknown>;
  /** The contact's events (those of the names the filter reads are enough). */
  events: readonly { name: string; createdAt: Date }[];
  /** The static segments the contact is a member of. */
  staticSegments: ReadonlySet<string>;
  /** In a workflow: the data of the event that triggered the execution (`event.<path>`). */
  eventData?: Record<string, unknown>;
  /** In a workflow: the execution's context (`context.<path>`). */
  context?: Record<string, unknown>;
}

/** What `segment.<id>` names: a static segment (members are listed) or a dynamic one (a filter). */
export type SegmentDefinition = { type: 'STATIC' } | { type: 'DYNAMIC'; filter: Filter };

export interface EvaluationContext {
  /** The moment windows end at (`within 7 days` of it). */
  now: Date;
  /** The segments the filter refers to, and those theirs refer to. */
  segments: ReadonlyMap<string, SegmentDefinition>;
  /** How fields read (segment unless given). */
  scope?: FilterScope;
}

function ordered(left: number, operator: OrderingOperator, right: number): boolean {
  switch (operator) {
    case 'greaterThan':
      return left > right;
    case 'lessThan':
      return left < right;
    case 'greaterThanOrEqual':
      return left >= right;
    case 'lessThanOrEqual':
      return left <= right;
  }
}

/** The value `field` has, for the value operators: a data value, or a standard column. */
function fieldValue(subject: FilterSubject, condition: Condition, scope: FilterScope): unknown {
  const field = parseField(condition.field, scope);
  switch (field?.kind) {
    case 'email':
      return subject.email;
    case 'subscribed':
      return subject.subscribed;
    case 'date':
      return subject[field.column];
    case 'data':
      return valueAt(subject.data, field.path);
    case 'eventData':
      return valueAt(subject.eventData ?? {}, field.path);
    case 'context':
      return valueAt(subject.context ?? {}, field.path);
    default:
      return undefined;
  }
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? foldCase(value) : undefined;
}

function matchesValue(stored: unknown, condition: Condition, now: Date): boolean {
  const { operator, value } = condition;
  switch (operator) {
    case 'equals':
      return looseEquals(stored, value as Scalar);
    case 'notEquals':
      return !looseEquals(stored, value as Scalar);
    case 'in':
      return (value as Scalar[]).some((v) => looseEquals(stored, v));
    case 'notIn':
      return !(value as Scalar[]).some((v) => looseEquals(stored, v));
    case 'contains':
      return textOf(stored)?.includes(foldCase(value as string)) ?? false;
    case 'notContains':
      return !(textOf(stored)?.includes(foldCase(value as string)) ?? false);
    case 'startsWith':
      return textOf(stored)?.startsWith(foldCase(value as string)) ?? false;
    case 'endsWith':
      return textOf(stored)?.endsWith(foldCase(value as string)) ?? false;
    case 'greaterThan':
    case 'lessThan':
    case 'greaterThanOrEqual':
    case 'lessThanOrEqual': {
      if (typeof value === 'number') {
        const number = numberOf(stored);
        return number !== undefined && ordered(number, operator, value);
      }
      const at = stored instanceof Date ? stored : timestampOf(stored);
      const bound = parseTimestamp(value as string);
      return (
        at !== undefined && bound !== undefined && ordered(at.getTime(), operator, bound.getTime())
      );
    }
    case 'exists':
      return stored !== undefined && stored !== null;
    case 'notExists':
      return stored === undefined || stored === null;
    case 'within':
    case 'olderThan': {
      const at = stored instanceof Date ? stored : timestampOf(stored);
      if (!at) return false;
      const start = windowStart(now, value as number, condition.unit ?? 'days').getTime();
      return operator === 'within'
        ? at.getTime() >= start && at.getTime() <= now.getTime()
        : at.getTime() < start;
    }
    default:
      return false;
  }
}

function matchesEvents(
  subject: FilterSubject,
  condition: Condition,
  name: string,
  now: Date,
): boolean {
  const times = subject.events.filter((e) => e.name === name).map((e) => e.createdAt.getTime());
  const start = () =>
    windowStart(now, condition.value as number, condition.unit ?? 'days').getTime();
  switch (condition.operator) {
    case 'triggered':
      return times.length > 0;
    case 'notTriggered':
      return times.length === 0;
    case 'triggeredWithin':
      return times.some((t) => t >= start());
    case 'notTriggeredWithin':
      return !times.some((t) => t >= start());
    case 'triggeredOlderThan':
      return times.length > 0 && !times.some((t) => t >= start());
    case 'triggeredCount':
      return times.length >= (condition.value as number);
    default:
      return false;
  }
}

function matchesCondition(
  subject: FilterSubject,
  condition: Condition,
  context: EvaluationContext,
  visiting: ReadonlySet<string>,
): boolean {
  const scope = context.scope ?? 'segment';
  const field = parseField(condition.field, scope);
  if (field?.kind === 'event') return matchesEvents(subject, condition, field.name, context.now);
  if (field?.kind === 'segment') {
    const member = isMember(subject, field.id, context, visiting);
    return condition.operator === 'memberOf' ? member : !member;
  }
  return matchesValue(fieldValue(subject, condition, scope), condition, context.now);
}

function isMember(
  subject: FilterSubject,
  segmentId: string,
  context: EvaluationContext,
  visiting: ReadonlySet<string>,
): boolean {
  const segment = context.segments.get(segmentId);
  if (!segment) return false;
  if (segment.type === 'STATIC') return subject.staticSegments.has(segmentId);
  if (visiting.has(segmentId)) throw new Error(`Segment ${segmentId} refers to itself`);
  return matchesFilter(subject, segment.filter, context, new Set([...visiting, segmentId]));
}

function matchesFilter(
  subject: FilterSubject,
  filter: Filter,
  context: EvaluationContext,
  visiting: ReadonlySet<string>,
): boolean {
  const test = (node: Condition | Filter): boolean =>
    isFilter(node)
      ? matchesFilter(subject, node, context, visiting)
      : matchesCondition(subject, node, context, visiting);
  return filter.operator === 'AND' ? filter.conditions.every(test) : filter.conditions.some(test);
}

/** Whether a contact matches a filter, decided in memory (workflow CONDITION steps). */
export function evaluateFilter(
  filter: Filter,
  subject: FilterSubject,
  context: EvaluationContext,
): boolean {
  return matchesFilter(subject, filter, context, new Set());
}

/** Whether a contact matches one condition, decided in memory (a workflow's CONDITION step). */
export function evaluateCondition(
  condition: Condition,
  subject: FilterSubject,
  context: EvaluationContext,
): boolean {
  return matchesCondition(subject, condition, context, new Set());
}
