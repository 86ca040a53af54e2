// How a filter reads a contact's data values: JSON scalars compared loosely across types, with
// strict textual forms for numbers, booleans and dates. The SQL back end (compile-sql.pure.ts)
// and the database functions of the segments migration implement the same rules; a property
// test holds them equal.

/**
 * Text that reads as a number: digits with an optional sign and fraction, 15 characters at most
 * (so 15 significant digits at most: every such decimal is one double, and compares the same as
 * exact decimals in the database and as doubles here). The migration's mw_filter_number has the
 * same pattern.
 */
export const NUMERIC_TEXT = /^[-+]?(?=[0-9.]{1,15}$)[0-9]+(\.[0-9]+)?$/;

/**
 * An ISO 8601 date, or date and time with an optional fraction (up to milliseconds) and zone.
 * Without a zone, UTC. Groups: year, month, day, hour, minute, second, fraction, zone, sign,
 * zone hours, zone minutes.
 */
export const ISO_TIMESTAMP =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,3}))?)?(Z|([+-])([0-9]{2})(?::?([0-9]{2}))?)?)?$/;

const daysInMonth = (year: number, month: number): number =>
  [
    31,
    year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ][month - 1] ?? 0;

/** The instant an ISO text names, or undefined when it is not one (Feb 30, hour 24...). */
export function parseTimestamp(text: string): Date | undefined {
  const m = ISO_TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const millis = m[7] ? Number(m[7].padEnd(3, '0')) : 0;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return undefined;
  }
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (m[9]) {
    const [zoneHours, zoneMinutes] = [Number(m[10]), Number(m[11] ?? 0)];
    if (zoneHours > 15 || zoneMinutes > 59) return undefined;
    offsetMinutes = (zoneHours * 60 + zoneMinutes) * (m[9] === '-' ? -1 : 1);
  }
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: the latter reads years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return new Date(date.getTime() - offsetMinutes * 60_000);
}

/** A data value as a number: a JSON number, or text that reads as one. */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && NUMERIC_TEXT.test(value)) return Number(value);
  return undefined;
}

/** A data value as an instant: text that reads as an ISO 8601 date. */
export function timestampOf(value: unknown): Date | undefined {
  return typeof value === 'string' ? parseTimestamp(value) : undefined;
}

/**
 * Loose equality of a stored data value with a filter value: same type and value, or a number
 * and text that reads as that number, or a boolean and the text `true`/`false`. Objects, arrays
 * and absent values equal nothing.
 */
export function looseEquals(stored: unknown, value: string | number | boolean): boolean {
  if (typeof value === 'string') {
    if (typeof stored === 'string') return stored === value;
    if (typeof stored === 'number') return NUMERIC_TEXT.test(value) && stored === Number(value);
    if (typeof stored === 'boolean') return String(stored) === value;
    return false;
  }
  if (typeof value === 'number') {
    if (typeof stored === 'number') return stored === value;
    return typeof stored === 'string' && NUMERIC_TEXT.test(stored) && Number(stored) === value;
  }
  if (typeof stored === 'boolean') return stored === value;
  return typeof stored === 'string' && stored === String(value);
}

const ARRAY_INDEX = /^[ \t\n\v\f\r]*[-+]?[0-9]+$/;
const INT32_MAX = 2 ** 31 - 1;

/**
 * The value at a data path, read as PostgreSQL's `#>` reads it: object keys, and array elements
 * by index (negative from the end) where a key reads as an integer.
 */
export function valueAt(data: unknown, path: readonly string[]): unknown {
  let current = data;
  for (const key of path) {
    if (Array.isArray(current)) {
      if (!ARRAY_INDEX.test(key)) return undefined;
      let index = Number.parseInt(key.trim(), 10);
      if (Math.abs(index) > INT32_MAX) return undefined;
      if (index < 0) index += current.length;
      current = index >= 0 && index < current.length ? current[index] : undefined;
    } else if (typeof current === 'object' && current !== null) {
      current = Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined;
    } else {
      return undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}

/** Case-insensitive text comparison for contains, startsWith and endsWith (exact for ASCII). */
export const foldCase = (text: string): string => text.toLowerCase();
