import type { Scalar } from './ast.pure.js';
import { NUMERIC_TEXT } from './values.pure.js';

// The parts the SQL back end (compile-sql.pure.ts) and the operators' `compile` build
// fragments from. Every user value and field path is a bind parameter.

// The database functions of the segments migration: a data value as a number (JSON number or
// numeric text, as numeric) and text as an instant (ISO 8601), by the rules of values.pure.ts.
const NUMBER_OF = 'mw_filter_number';
const TIMESTAMP_OF = 'mw_filter_timestamp';

// How PostgreSQL writes a JSON number as text (`->>`): a plain decimal, never an exponent.
const DECIMAL_TEXT = /^-?[0-9]+(\.[0-9]+)?$/;

/** The bind parameters of a fragment, numbered in the order they are added. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

export const not = (expression: string): string => `((${expression}) IS NOT TRUE)`;
export const any = (parts: string[]): string =>
  parts.length === 0
    ? 'FALSE'
    : parts.length === 1
      ? (parts[0] as string)
      : `(${parts.join(' OR ')})`;

/**
 * A contact's value as the SQL value operators read it: a standard column or a data value.
 * A reading is absent where the value can never be read so (the operator then decides alone).
 */
export interface ValueSql {
  /** Lower-cased text, where the value is text. */
  text?: string;
  /** An instant, where the value is a date (or ISO text). */
  timestamp?: string;
  /** A number, where the value is one (a JSON number or numeric text). */
  number?: string;
  /** Whether a value is there; absent for columns, which always are. */
  present?: string;
  /** Loose equality (values.pure.ts looseEquals) with any of `values`. */
  equalsAny: (values: Scalar[]) => string;
}

/** A contact's events of one name as the SQL event operators read them. */
export interface EventsSql {
  /** Whether the contact has such an event (at or after `since`, when given). */
  exists: (since?: Date) => string;
  /** How many such events the contact has. */
  count: string;
}

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

/** A data value (`data.<path>`): text, an instant and a number where it reads as one. */
export function dataSql(path: string[], params: Params): ValueSql {
  const value = dataValue(path, params);
  const ifString = (expression: string): string =>
    `(CASE WHEN jsonb_typeof(${value.json}) = 'string' THEN ${expression} END)`;
  return {
    text: ifString(`lower(${value.text})`),
    timestamp: ifString(`${TIMESTAMP_OF}(${value.text})`),
    number: `${NUMBER_OF}(${value.json})`,
    present: `jsonb_typeof(${value.json}) <> 'null'`,
    equalsAny: (values) => dataEqualsAny(value, values, params),
  };
}

/** A text column (email): equal to the values' text forms. */
export const textColumn = (column: string, params: Params): ValueSql => ({
  text: `lower(${column})`,
  equalsAny: (values) => equalsOne(column, values.map(String), 'text', params),
});

/** A boolean column (subscribed): equal to the boolean values only. */
export const booleanColumn = (column: string, params: Params): ValueSql => ({
  equalsAny: (values) => {
    const flags = values.filter((v): v is boolean => typeof v === 'boolean');
    return flags.length === 0 ? 'FALSE' : equalsOne(column, flags, 'boolean', params);
  },
});

/** A timestamp column (createdAt, updatedAt): equal to nothing. */
export const timestampColumn = (column: string): ValueSql => ({
  timestamp: column,
  equalsAny: () => 'FALSE',
});
