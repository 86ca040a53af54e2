import { z } from 'zod';
import { normaliseEmail, sortData } from '../contacts/data-rules.pure.js';
import { isStorableText } from '../shared/storable-text.pure.js';

const UNSTORABLE = 'holds a NUL character or an unpaired UTF-16 surrogate, which cannot be stored';
const emailSchema = z.email().max(254);
const TRUE = new Set(['true', '1', 'yes', 'y']);
const FALSE = new Set(['false', '0', 'no', 'n']);

export interface ImportRow {
  row: number;
  email: string;
  subscribed: boolean | null;
  set: Record<string, unknown>;
}

export type ParsedRow =
  { ok: true; value: ImportRow } | { ok: false; row: number; message: string };

/** The header's columns, trimmed; the email column (any case) is required. */
export function importColumns(header: string[]): { columns: string[]; error?: string } {
  const columns = header.map((h) => h.trim());
  const unstorable = columns.findIndex((c) => !isStorableText(c));
  if (unstorable >= 0)
    return { columns, error: `Column ${unstorable + 1} of the header row ${UNSTORABLE}` };
  const emails = columns.filter((c) => c.toLowerCase() === 'email');
  if (emails.length !== 1)
    return { columns, error: 'The header row needs exactly one "email" column' };
  return { columns };
}

/**
 * One CSV record to a contact write: `email` is required and checked, `subscribed` (true/false,
 * 1/0, yes/no) is honoured when present, every other column becomes data.<column> under the data
 * rules (empty cells are ignored, reserved keys dropped). Values stay strings.
 */
export function parseImportRow(columns: string[], record: string[], row: number): ParsedRow {
  if (record.length !== columns.length) {
    return {
      ok: false,
      row,
      message: `Expected ${columns.length} columns, found ${record.length}`,
    };
  }
  const unstorable = record.findIndex((cell) => !isStorableText(cell));
  if (unstorable >= 0) {
    const column = columns[unstorable] as string;
    return { ok: false, row, message: `The "${column}" cell ${UNSTORABLE}` };
  }
  let email = '';
  let subscribed: boolean | null = null;
  const data: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i += 1) {
    const column = columns[i] as string;
    const cell = (record[i] ?? '').trim();
    const lower = column.toLowerCase();
    if (lower === 'email') email = normaliseEmail(cell);
    else if (lower === 'subscribed') {
      if (cell === '') continue;
      const value = cell.toLowerCase();
      if (TRUE.has(value)) subscribed = true;
      else if (FALSE.has(value)) subscribed = false;
      else return { ok: false, row, message: `"subscribed" must be true or false, not "${cell}"` };
    } else if (column !== '') data[column] = cell;
  }
  if (!emailSchema.safeParse(email).success) {
    return { ok: false, row, message: email ? `Invalid email "${email}"` : 'Missing email' };
  }
  return { ok: true, value: { row, email, subscribed, set: sortData(data).set } };
}

/**
 * Rows of one batch merged by email (later cells win), so one statement writes each contact once.
 * The rows given are not changed (a row is copied before a later one is merged into it).
 */
export function mergeByEmail(rows: ImportRow[]): { row: ImportRow; occurrences: number }[] {
  const merged = new Map<string, { row: ImportRow; occurrences: number }>();
  for (const row of rows) {
    const seen = merged.get(row.email);
    if (!seen) merged.set(row.email, { row, occurrences: 1 });
    else {
      if (seen.occurrences === 1) seen.row = { ...seen.row, set: { ...seen.row.set } };
      seen.occurrences += 1;
      Object.assign(seen.row.set, row.set);
      if (row.subscribed !== null) seen.row.subscribed = row.subscribed;
    }
  }
  return [...merged.values()];
}
