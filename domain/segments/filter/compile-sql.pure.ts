import {
  isFilter,
  parseField,
  windowStart,
  type Condition,
  type Filter,
  type OrderingOperator,
  type Scalar,
} from './ast.pure.js';
import type { SegmentDefinition } from './evaluate.pure.js';
import { NUMERIC_TEXT, foldCase, parseTimestamp } from './values.pure.js';

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

// The database functions of the segments migration: a data value as a number (JSON number or
// numeric text) and text as an instant (ISO 8601), by the rules of values.pure.ts.
const NUMBER_OF = 'mw_filter_number';
const TIMESTAMP_OF = 'mw_filter_timestamp';

class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

const SQL_ORDERING: Record<OrderingOperator, string> = {
  greaterThan: '>',
  lessThan: '<',
  greaterThanOrEqual: '>=',
  lessThanOrEqual: '<=',
};

const not = (expression: string): string => `((${expression}) IS NOT TRUE)`;
const any = (parts: string[]): string =>
  (parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`) as string;

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Loose equality with any of `values` (values.pure.ts looseEquals): the same JSON value, a
 * stored number and numeric text, stored numeric text and a number, a boolean and its text.
 */
function jsonEqualsAny(json: string, values: Scalar[], params: Params): string {
  const exact: string[] = [];
  const onNumbers: number[] = [];
  const onNumericText: number[] = [];
  for (const value of values) {
    if (typeof value === 'string') {
      exact.push(JSON.stringify(value));
      if (NUMERIC_TEXT.test(value)) onNumbers.push(Number(value));
      if (value === 'true' || value === 'false') exact.push(value);
    } else if (typeof value === 'number') {
      onNumbers.push(value);
      onNumericText.push(value);
    } else {
      exact.push(JSON.stringify(value), JSON.stringify(String(value)));
    }
  }
  const parts: string[] = [];
  if (exact.length === 1) parts.push(`${json} = ${params.add(exact[0], 'jsonb')}`);
  else if (exact.length > 1) parts.push(`${json} = ANY(${params.add(exact, 'jsonb[]')})`);
  if (onNumbers.length > 0) {
    parts.push(
      `(jsonb_typeof(${json}) = 'number' AND (${json})::float8 = ANY(${params.add(onNumbers, 'float8[]')}))`,
    );
  }
  if (onNumericText.length > 0) {
    parts.push(
      `(jsonb_typeof(${json}) = 'string' AND ${NUMBER_OF}(${json}) = ANY(${params.add(onNumericText, 'float8[]')}))`,
    );
  }
  return any(parts);
}

/** The same for a text column (email): only text equals text. */
function textEqualsAny(column: string, values: Scalar[], params: Params): string {
  const texts = values.map((v) => String(v));
  return texts.length === 1
    ? `${column} = ${params.add(texts[0], 'text')}`
    : `${column} = ANY(${params.add(texts, 'text[]')})`;
}

function likePattern(operator: string, value: string): string {
  const text = escapeLike(foldCase(value));
  if (operator === 'startsWith') return `${text}%`;
  if (operator === 'endsWith') return `%${text}`;
  return `%${text}%`;
}

/** A value operator on a data value (`json`, jsonb) or a standard column. */
function compileValue(
  condition: Condition,
  target: { json: string } | { text: string } | { boolean: string } | { timestamp: string },
  context: CompileContext,
  params: Params,
): string {
  const { operator, value } = condition;
  // The stored value read as text (strings only), as a number and as an instant.
  const asText =
    'json' in target
      ? `(CASE WHEN jsonb_typeof(${target.json}) = 'string' THEN lower(${target.json} #>> '{}') END)`
      : 'text' in target
        ? `lower(${target.text})`
        : undefined;
  const asTimestamp =
    'json' in target
      ? `(CASE WHEN jsonb_typeof(${target.json}) = 'string' THEN ${TIMESTAMP_OF}(${target.json} #>> '{}') END)`
      : 'timestamp' in target
        ? target.timestamp
        : undefined;
  const equalsAny = (values: Scalar[]): string => {
    if ('json' in target) return jsonEqualsAny(target.json, values, params);
    if ('text' in target) return textEqualsAny(target.text, values, params);
    if ('boolean' in target) {
      const flags = values.filter((v): v is boolean => typeof v === 'boolean');
      return flags.length === 0
        ? 'FALSE'
        : `${target.boolean} = ANY(${params.add(flags, 'boolean[]')})`;
    }
    return 'FALSE';
  };
  switch (operator) {
    case 'equals':
      return equalsAny([value as Scalar]);
    case 'notEquals':
      return not(equalsAny([value as Scalar]));
    case 'in':
      return equalsAny(value as Scalar[]);
    case 'notIn':
      return not(equalsAny(value as Scalar[]));
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      return asText
        ? `${asText} LIKE ${params.add(likePattern(operator, value as string), 'text')} ESCAPE '\\'`
        : 'FALSE';
    case 'notContains':
      return asText
        ? not(
            `${asText} LIKE ${params.add(likePattern('contains', value as string), 'text')} ESCAPE '\\'`,
          )
        : 'TRUE';
    case 'greaterThan':
    case 'lessThan':
    case 'greaterThanOrEqual':
    case 'lessThanOrEqual': {
      const sign = SQL_ORDERING[operator];
      if (typeof value === 'number') {
        return 'json' in target
          ? `${NUMBER_OF}(${target.json}) ${sign} ${params.add(value, 'float8')}`
          : 'FALSE';
      }
      const bound = parseTimestamp(value as string);
      return asTimestamp && bound
        ? `${asTimestamp} ${sign} ${params.add(bound, 'timestamptz')}`
        : 'FALSE';
    }
    case 'exists':
      return 'json' in target ? `jsonb_typeof(${target.json}) <> 'null'` : 'TRUE';
    case 'notExists':
      return 'json' in target ? not(`jsonb_typeof(${target.json}) <> 'null'`) : 'FALSE';
    case 'within':
    case 'olderThan': {
      if (!asTimestamp) return 'FALSE';
      const start = params.add(
        windowStart(context.now, value as number, condition.unit ?? 'days'),
        'timestamptz',
      );
      return operator === 'within'
        ? `(${asTimestamp} >= ${start} AND ${asTimestamp} <= ${params.add(context.now, 'timestamptz')})`
        : `${asTimestamp} < ${start}`;
    }
    default:
      return 'FALSE';
  }
}

function compileEvents(
  condition: Condition,
  name: string,
  context: CompileContext,
  params: Params,
): string {
  const named = `e.contact_id = c.id AND e.project_id = c.project_id AND e.name = ${params.add(name, 'text')}`;
  const exists = (extra = ''): string => `EXISTS (SELECT 1 FROM events e WHERE ${named}${extra})`;
  const sinceStart = (): string =>
    ` AND e.created_at >= ${params.add(
      windowStart(context.now, condition.value as number, condition.unit ?? 'days'),
      'timestamptz',
    )}`;
  switch (condition.operator) {
    case 'triggered':
      return exists();
    case 'notTriggered':
      return `NOT ${exists()}`;
    case 'triggeredWithin':
      return exists(sinceStart());
    case 'notTriggeredWithin':
      return `NOT ${exists(sinceStart())}`;
    case 'triggeredOlderThan':
      return `(${exists()} AND NOT ${exists(sinceStart())})`;
    case 'triggeredCount':
      return `(SELECT count(*) FROM events e WHERE ${named}) >= ${params.add(condition.value, 'int')}`;
    default:
      return 'FALSE';
  }
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
  switch (field?.kind) {
    case 'email':
      return compileValue(condition, { text: 'c.email' }, context, params);
    case 'subscribed':
      return compileValue(condition, { boolean: 'c.subscribed' }, context, params);
    case 'date':
      return compileValue(
        condition,
        { timestamp: field.column === 'createdAt' ? 'c.created_at' : 'c.updated_at' },
        context,
        params,
      );
    case 'data':
      return compileValue(
        condition,
        { json: `(c.data #> ${params.add(field.path, 'text[]')})` },
        context,
        params,
      );
    case 'event':
      return compileEvents(condition, field.name, context, params);
    case 'segment': {
      const member = compileMembership(field.id, context, params, visiting);
      return condition.operator === 'memberOf' ? member : not(member);
    }
    default:
      return 'FALSE';
  }
}

function compileGroup(
  filter: Filter,
  context: CompileContext,
  params: Params,
  visiting: ReadonlySet<string>,
): string {
  if (filter.conditions.length === 0) return filter.operator === 'AND' ? 'TRUE' : 'FALSE';
  const parts = filter.conditions.map((node) =>
    isFilter(node)
      ? compileGroup(node, context, params, visiting)
      : compileCondition(node, context, params, visiting),
  );
  return `(${parts.join(filter.operator === 'AND' ? ' AND ' : ' OR ')})`;
}

/** The filter as a WHERE fragment over `contacts c`, decided in the database (set-based). */
export function compileFilter(filter: Filter, context: CompileContext): SqlFragment {
  const params = new Params();
  const text = compileGroup(filter, context, params, new Set());
  return { text, params: params.values };
}
