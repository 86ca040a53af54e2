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
// numeric text, as numeric) and text as an instant (ISO 8601), by the rules of values.pure.ts.
const NUMBER_OF = 'mw_filter_number';
const TIMESTAMP_OF = 'mw_filter_timestamp';

// How PostgreSQL writes a JSON number as text (`->>`): a plain decimal, never an exponent.
const DECIMAL_TEXT = /^-?[0-9]+(\.[0-9]+)?$/;

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
  parts.length === 0
    ? 'FALSE'
    : parts.length === 1
      ? (parts[0] as string)
      : `(${parts.join(' OR ')})`;
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A data value, read as jsonb and as text (`->>`: strings raw, numbers as plain decimals). */
interface DataValue {
  json: string;
  text: string;
}

function dataValue(path: string[], params: Params): DataValue {
  if (path.length === 1) {
    const key = params.add(path[0], 'text');
    return { json: `(c.data -> ${key})`, text: `(c.data ->> ${key})` };
  }
  const at = params.add(path, 'text[]');
  return { json: `(c.data #> ${at})`, text: `(c.data #>> ${at})` };
}

const equalsOne = (expression: string, values: unknown[], cast: string, params: Params): string =>
  values.length === 1
    ? `${expression} = ${params.add(values[0], cast)}`
    : `${expression} = ANY(${params.add(values, `${cast}[]`)})`;

/**
 * Loose equality with any of `values` (values.pure.ts looseEquals), in the cheapest form each
 * value allows. The text form of a value (`->>`) equals a text or boolean value exactly when the
 * stored value is that text, or that boolean, or a number written so (a number written so also
 * equals it loosely when the text is numeric). Texts that could be how a number or an object is
 * written, but are not numeric text, match stored text only.
 */
function dataEqualsAny(value: DataValue, values: Scalar[], params: Params): string {
  const texts: string[] = [];
  const textsOnly: string[] = [];
  const numbersOfNumbers: number[] = [];
  const numbers: number[] = [];
  for (const v of values) {
    if (typeof v === 'number') numbers.push(v);
    else if (typeof v === 'boolean') texts.push(String(v));
    else if (NUMERIC_TEXT.test(v)) {
      texts.push(v);
      numbersOfNumbers.push(Number(v));
    } else if (DECIMAL_TEXT.test(v) || v.startsWith('{') || v.startsWith('[')) textsOnly.push(v);
    else texts.push(v);
  }
  const parts: string[] = [];
  if (texts.length > 0) parts.push(equalsOne(value.text, texts, 'text', params));
  if (textsOnly.length > 0) {
    parts.push(
      `(jsonb_typeof(${value.json}) = 'string' AND ${equalsOne(value.text, textsOnly, 'text', params)})`,
    );
  }
  if (numbersOfNumbers.length > 0) {
    parts.push(
      `(jsonb_typeof(${value.json}) = 'number' AND ${equalsOne(`(${value.json})::numeric`, numbersOfNumbers, 'numeric', params)})`,
    );
  }
  if (numbers.length > 0) {
    parts.push(equalsOne(`${NUMBER_OF}(${value.json})`, numbers, 'numeric', params));
  }
  return any(parts);
}

function likePattern(operator: string, value: string): string {
  const text = escapeLike(foldCase(value));
  if (operator === 'startsWith') return `${text}%`;
  if (operator === 'endsWith') return `%${text}`;
  return `%${text}%`;
}

/** How a standard column or a data value is read by the value operators. */
type Target =
  | { kind: 'data'; value: DataValue }
  | { kind: 'text'; column: string }
  | { kind: 'boolean'; column: string }
  | { kind: 'timestamp'; column: string };

function compileValue(
  condition: Condition,
  target: Target,
  context: CompileContext,
  params: Params,
): string {
  const { operator, value } = condition;
  // The stored value as lower-cased text (text values only) and as an instant.
  const asText =
    target.kind === 'data'
      ? `(CASE WHEN jsonb_typeof(${target.value.json}) = 'string' THEN lower(${target.value.text}) END)`
      : target.kind === 'text'
        ? `lower(${target.column})`
        : undefined;
  const asTimestamp =
    target.kind === 'data'
      ? `(CASE WHEN jsonb_typeof(${target.value.json}) = 'string' THEN ${TIMESTAMP_OF}(${target.value.text}) END)`
      : target.kind === 'timestamp'
        ? target.column
        : undefined;
  const equalsAny = (values: Scalar[]): string => {
    switch (target.kind) {
      case 'data':
        return dataEqualsAny(target.value, values, params);
      case 'text':
        return equalsOne(target.column, values.map(String), 'text', params);
      case 'boolean': {
        const flags = values.filter((v): v is boolean => typeof v === 'boolean');
        return flags.length === 0 ? 'FALSE' : equalsOne(target.column, flags, 'boolean', params);
      }
      default:
        return 'FALSE';
    }
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
        return target.kind === 'data'
          ? `${NUMBER_OF}(${target.value.json}) ${sign} ${params.add(value, 'numeric')}`
          : 'FALSE';
      }
      const bound = parseTimestamp(value as string);
      return asTimestamp && bound
        ? `${asTimestamp} ${sign} ${params.add(bound, 'timestamptz')}`
        : 'FALSE';
    }
    case 'exists':
      return target.kind === 'data' ? `jsonb_typeof(${target.value.json}) <> 'null'` : 'TRUE';
    case 'notExists':
      return target.kind === 'data' ? not(`jsonb_typeof(${target.value.json}) <> 'null'`) : 'FALSE';
    case 'within':
    case 'olderThan': {
      if (!asTimestamp) return 'FALSE';
      const start = windowStart(context.now, value as number, condition.unit ?? 'days');
      // One range test reads the stored date once.
      return operator === 'within'
        ? `tstzrange(${params.add(start, 'timestamptz')}, ${params.add(context.now, 'timestamptz')}, '[]') @> ${asTimestamp}`
        : `${asTimestamp} < ${params.add(start, 'timestamptz')}`;
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
  const named = `e.contact_id = c.id AND e.name = ${params.add(name, 'text')}`;
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
      return compileValue(condition, { kind: 'text', column: 'c.email' }, context, params);
    case 'subscribed':
      return compileValue(condition, { kind: 'boolean', column: 'c.subscribed' }, context, params);
    case 'date':
      return compileValue(
        condition,
        {
          kind: 'timestamp',
          column: field.column === 'createdAt' ? 'c.created_at' : 'c.updated_at',
        },
        context,
        params,
      );
    case 'data':
      return compileValue(
        condition,
        { kind: 'data', value: dataValue(field.path, params) },
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

const isNumberBound = (node: Condition | Filter): node is Condition & { value: number } =>
  !isFilter(node) &&
  node.operator in SQL_ORDERING &&
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
  const value = dataValue(field.path, params);
  const kinds = `${lower?.inclusive ? '[' : '('}${upper?.inclusive ? ']' : ')'}`;
  return `numrange(${params.add(lower?.value ?? null, 'numeric')}, ${params.add(upper?.value ?? null, 'numeric')}, '${kinds}') @> ${NUMBER_OF}(${value.json})`;
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
