import { WINDOW_UNIT_MS, WINDOW_UNITS, type Scalar, type WindowUnit } from './ast.pure.js';
import type { Operand, OperandInput } from './operators/operator-definition.pure.js';
import type { ProblemPath, Problems } from './problems.pure.js';
import { NUMERIC_TEXT, parseTimestamp } from './values.pure.js';

// The operand parsers the operators share: each checks a condition's `value` (and `unit`) and
// answers it in its canonical form, or reports a problem and answers undefined.

export const MAX_IN_VALUES = 500;
export const MAX_TEXT_VALUE = 1000;
/** Windows longer than this (in any unit) are surely a mistake. */
const MAX_WINDOW_DAYS = 36_500;
const MAX_EVENT_COUNT = 1_000_000;

const valuePath = (path: ProblemPath): ProblemPath => [...path, 'value'];

/** Reports the condition's `value` as invalid, saying what to give instead; answers undefined. */
const invalidValue = ({ path, problems }: OperandInput, message: string): undefined =>
  problems.add(valuePath(path), 'invalid_value', message);

function scalarValue(value: unknown, path: ProblemPath, problems: Problems): Scalar | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.length <= MAX_TEXT_VALUE) return value;
  return problems.add(
    path,
    'invalid_value',
    `Give a text (up to ${MAX_TEXT_VALUE} characters), a number or a boolean`,
  );
}

/** No operand (exists, triggered, memberOf...). */
export const noOperand = (): Operand => ({});

/** A window ending now: `value` units of `unit` (days unless given). */
export function windowOperand({ condition, path, problems }: OperandInput): Operand | undefined {
  const unit = condition.unit ?? 'days';
  if (!(WINDOW_UNITS as readonly unknown[]).includes(unit)) {
    return problems.add([...path, 'unit'], 'invalid_value', 'Use minutes, hours or days');
  }
  const value = condition.value;
  const days = (Number(value) * WINDOW_UNIT_MS[unit as WindowUnit]) / WINDOW_UNIT_MS.days;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value <= 0 ||
    days > MAX_WINDOW_DAYS
  ) {
    return problems.add(
      valuePath(path),
      'invalid_value',
      'Give how many units long the window is: a number above 0 (at most 100 years)',
    );
  }
  return { value, unit: unit as WindowUnit };
}

/** The least count of events: a whole number, 1 or more. */
export function countOperand(input: OperandInput): Operand | undefined {
  const raw = input.condition.value;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > MAX_EVENT_COUNT) {
    return invalidValue(input, 'Give the least count: a whole number, 1 or more');
  }
  return { value: raw };
}

/** A non-empty text to find (a number is read as its text). */
export function textOperand(input: OperandInput): Operand | undefined {
  const raw = input.condition.value;
  const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_TEXT_VALUE) {
    return invalidValue(input, `Give a text of 1 to ${MAX_TEXT_VALUE} characters`);
  }
  return { value: text };
}

/** A bound: an ISO date for a date field; a number (numeric text read as one) or a date else. */
export function boundOperand(input: OperandInput): Operand | undefined {
  const { field } = input;
  const raw = input.condition.value;
  const isDate = typeof raw === 'string' && parseTimestamp(raw) !== undefined;
  if (field.kind !== 'date' && typeof raw === 'string' && NUMERIC_TEXT.test(raw)) {
    return { value: Number(raw) };
  }
  const isNumber = typeof raw === 'number' && Number.isFinite(raw);
  if (field.kind === 'date' ? !isDate : !isDate && !isNumber) {
    return invalidValue(
      input,
      field.kind === 'date'
        ? 'Give an ISO 8601 date, such as 2026-01-31 or 2026-01-31T09:30:00Z'
        : 'Give a number, or an ISO 8601 date such as 2026-01-31',
    );
  }
  return { value: raw as Scalar };
}

/** One value to equal: true or false for subscribed, lower-cased for email. */
export function scalarOperand(input: OperandInput): Operand | undefined {
  const { field, path, problems } = input;
  const raw = input.condition.value;
  if (field.kind === 'subscribed') {
    const flag = raw === 'true' ? true : raw === 'false' ? false : raw;
    if (typeof flag !== 'boolean') return invalidValue(input, 'Give true or false');
    return { value: flag };
  }
  const value = scalarValue(raw, valuePath(path), problems);
  if (value === undefined) return undefined;
  return { value: field.kind === 'email' ? String(value).toLowerCase() : value };
}

/** A list of values to equal any of (lower-cased for email). */
export function listOperand(input: OperandInput): Operand | undefined {
  const { field, path, problems } = input;
  const raw = input.condition.value;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_IN_VALUES) {
    return invalidValue(input, `Give a list of 1 to ${MAX_IN_VALUES} values`);
  }
  const values: Scalar[] = [];
  for (const [i, item] of raw.entries()) {
    const value = scalarValue(item, [...valuePath(path), i], problems);
    if (value === undefined) return undefined;
    values.push(field.kind === 'email' ? String(value).toLowerCase() : value);
  }
  return { value: values };
}
