import { assertNever } from '../../shared/assert-never.pure.js';
import {
  isFilter,
  parseField,
  type Condition,
  type FieldRef,
  type Filter,
  type FilterScope,
} from './ast.pure.js';
import { FILTER_OPERATORS } from './filter-operators.pure.js';
import { valueAt } from './values.pure.js';

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

/** A field the value operators read (not a contact's events nor a segment). */
type ValueField = Exclude<FieldRef, { kind: 'event' } | { kind: 'segment' }>;

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

/** The value a field has, for the value operators: a standard column or a data value. */
function fieldValue(subject: FilterSubject, field: ValueField): unknown {
  switch (field.kind) {
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
  }
  return assertNever(field, 'field');
}

const eventTimes = (subject: FilterSubject, name: string): number[] =>
  subject.events.filter((e) => e.name === name).map((e) => e.createdAt.getTime());

function matchesCondition(
  subject: FilterSubject,
  condition: Condition,
  context: EvaluationContext,
  visiting: ReadonlySet<string>,
): boolean {
  const operator = FILTER_OPERATORS[condition.operator];
  const field = parseField(condition.field, context.scope ?? 'segment');
  // An operator is only ever given a field it applies to (parse.pure.ts); another reads false.
  if (field?.kind === 'event') {
    return (
      operator.reads === 'events' &&
      operator.evaluate(eventTimes(subject, field.name), condition, context.now)
    );
  }
  if (field?.kind === 'segment') {
    return (
      operator.reads === 'membership' &&
      operator.evaluate(isMember(subject, field.id, context, visiting))
    );
  }
  const stored = field ? fieldValue(subject, field) : undefined;
  return operator.reads === 'value' && operator.evaluate(stored, condition, context.now);
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
