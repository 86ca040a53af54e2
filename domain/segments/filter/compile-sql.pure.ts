import { assertNever } from '../../shared/assert-never.pure.js';
import {
  ORDERING_OPERATORS,
  isFilter,
  parseField,
  type Condition,
  type Filter,
} from './ast.pure.js';
import type { SegmentDefinition } from './evaluate.pure.js';
import { FILTER_OPERATORS } from './filter-operators.pure.js';
import {
  Params,
  booleanColumn,
  dataSql,
  textColumn,
  timestampColumn,
  type EventsSql,
  type ValueSql,
} from './sql-parts.pure.js';

/**
 * A boolean SQL expression over the contact row aliased `c` (table `contacts`), with its bind
 * parameters ($1...). Every user value and field path is a parameter; the text holds only what
 * this compiler writes. Callers append their own parameters after these.
 */
export interface SqlFragment {
  text: string;
  params: unknown[];
}

export interface CompileContext {
  /** The moment windows end at; a parameter, so SQL and memory agree on it. */
  now: Date;
  /** The segments the filter refers to, and those theirs refer to. */
  segments: ReadonlyMap<string, SegmentDefinition>;
}

/** The condition over a value (a column or a data value), or FALSE for another operator. */
function compileValue(
  condition: Condition,
  value: ValueSql,
  context: CompileContext,
  params: Params,
): string {
  const operator = FILTER_OPERATORS[condition.operator];
  return operator.reads === 'value'
    ? operator.compile(value, condition, context.now, params)
    : 'FALSE';
}

/**
 * Event conditions read the contact's summary of that name (contact_event_summary: how many,
 * and when the last was, kept by triggers on events), one indexed row, not its events: every
 * window ends now, so an event at or after the window's start is there exactly when the last
 * one is.
 */
function compileEvents(
  condition: Condition,
  name: string,
  context: CompileContext,
  params: Params,
): string {
  const operator = FILTER_OPERATORS[condition.operator];
  if (operator.reads !== 'events') return 'FALSE';
  const summary = `FROM contact_event_summary s WHERE s.contact_id = c.id AND s.name = ${params.add(name, 'text')}`;
  const events: EventsSql = {
    exists: (since) =>
      `EXISTS (SELECT 1 ${summary}${since ? ` AND s.last_at >= ${params.add(since, 'timestamptz')}` : ''})`,
    count: `coalesce((SELECT s.count ${summary}), 0)`,
  };
  return operator.compile(events, condition, context.now, params);
}

function compileMembership(
  segmentId: string,
  context: CompileContext,
  params: Params,
  visiting: ReadonlySet<string>,
): string {
  const segment = context.segments.get(segmentId);
  if (!segment) return 'FALSE';
  if (segment.type === 'STATIC') {
    return `EXISTS (SELECT 1 FROM segment_members m WHERE m.segment_id = ${params.add(segmentId, 'uuid')} AND m.contact_id = c.id)`;
  }
  if (visiting.has(segmentId)) throw new Error(`Segment ${segmentId} refers to itself`);
  return compileGroup(segment.filter, context, params, new Set([...visiting, segmentId]));
}

function compileCondition(
  condition: Condition,
  context: CompileContext,
  params: Params,
  visiting: ReadonlySet<string>,
): string {
  const field = parseField(condition.field);
  if (!field) return 'FALSE';
  switch (field.kind) {
    case 'email':
      return compileValue(condition, textColumn('c.email', params), context, params);
    case 'subscribed':
      return compileValue(condition, booleanColumn('c.subscribed', params), context, params);
    case 'date': {
      const column = field.column === 'createdAt' ? 'c.created_at' : 'c.updated_at';
      return compileValue(condition, timestampColumn(column), context, params);
    }
    case 'data':
      return compileValue(condition, dataSql(field.path, params), context, params);
    case 'event':
      return compileEvents(condition, field.name, context, params);
    case 'segment': {
      const operator = FILTER_OPERATORS[condition.operator];
      return operator.reads === 'membership'
        ? operator.compile(compileMembership(field.id, context, params, visiting))
        : 'FALSE';
    }
    case 'eventData':
    case 'context':
      // Workflow fields: a segment's filter never reads them.
      return 'FALSE';
  }
  return assertNever(field, 'field');
}

const isNumberBound = (node: Condition | Filter): node is Condition & { value: number } =>
  !isFilter(node) &&
  (ORDERING_OPERATORS as readonly string[]).includes(node.operator) &&
  typeof node.value === 'number' &&
  parseField(node.field)?.kind === 'data';

/**
 * Number bounds ANDed on one data field, as one range test: the stored value is read once
 * (`numrange @> value`), not once per bound. Answers the bounds' conditions as one expression.
 */
function compileRange(bounds: (Condition & { value: number })[], params: Params): string {
  let lower: { value: number; inclusive: boolean } | undefined;
  let upper: { value: number; inclusive: boolean } | undefined;
  for (const { operator, value } of bounds) {
    const inclusive = operator === 'greaterThanOrEqual' || operator === 'lessThanOrEqual';
    if (operator === 'greaterThan' || operator === 'greaterThanOrEqual') {
      if (!lower || value > lower.value || (value === lower.value && !inclusive)) {
        lower = { value, inclusive };
      }
    } else if (!upper || value < upper.value || (value === upper.value && !inclusive)) {
      upper = { value, inclusive };
    }
  }
  if (
    lower &&
    upper &&
    (lower.value > upper.value ||
      (lower.value === upper.value && !(lower.inclusive && upper.inclusive)))
  ) {
    return 'FALSE';
  }
  const field = parseField((bounds[0] as Condition).field) as { kind: 'data'; path: string[] };
  const value = dataSql(field.path, params).number as string;
  const kinds = `${lower?.inclusive ? '[' : '('}${upper?.inclusive ? ']' : ')'}`;
  return `numrange(${params.add(lower?.value ?? null, 'numeric')}, ${params.add(upper?.value ?? null, 'numeric')}, '${kinds}') @> ${value}`;
}

function compileGroup(
  filter: Filter,
  context: CompileContext,
  params: Params,
  visiting: ReadonlySet<string>,
): string {
  if (filter.conditions.length === 0) return filter.operator === 'AND' ? 'TRUE' : 'FALSE';
  const parts: string[] = [];
  const ranged = new Map<string, (Condition & { value: number })[]>();
  if (filter.operator === 'AND') {
    for (const node of filter.conditions) {
      if (isNumberBound(node)) ranged.set(node.field, [...(ranged.get(node.field) ?? []), node]);
    }
    for (const [field, bounds] of ranged) if (bounds.length < 2) ranged.delete(field);
  }
  for (const node of filter.conditions) {
    if (isFilter(node)) parts.push(compileGroup(node, context, params, visiting));
    else if (isNumberBound(node) && ranged.has(node.field)) {
      const bounds = ranged.get(node.field) as (Condition & { value: number })[];
      if (bounds[0] === node) parts.push(compileRange(bounds, params));
    } else parts.push(compileCondition(node, context, params, visiting));
  }
  return `(${parts.join(filter.operator === 'AND' ? ' AND ' : ' OR ')})`;
}

/** The filter as a WHERE fragment over `contacts c`, decided in the database (set-based). */
export function compileFilter(filter: Filter, context: CompileContext): SqlFragment {
  const params = new Params();
  const text = compileGroup(filter, context, params, new Set());
  return { text, params: params.values };
}
