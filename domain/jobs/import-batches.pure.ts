import { storableText } from '../shared/storable-text.pure.js';
import { mergeByEmail, parseImportRow, type ImportRow } from './csv-rows.pure.js';

/**
 * One row of a staged import batch: a contact write (its rows merged by email, later cells
 * winning) or one record that failed. `batchStart` is the job's progress before the batch, so a
 * batch is applied, and the progress moved past it, in one transaction.
 */
export interface StagedImportRow {
  batchStart: number;
  /** The spreadsheet row (the header is row 1) of the failure, or of the write's first record. */
  sheetRow: number;
  /** The id the contact gets if it is new. */
  id: string | null;
  email: string | null;
  subscribed: boolean | null;
  data: Record<string, unknown> | null;
  /** How many of the batch's records this row stands for (1 for a failure). */
  occurrences: number;
  error: string | null;
}

/** A record of the file, or the parser's error in its place. */
export type ImportRecord = { record: string[] } | { error: Error };

/** A batch being read: its records checked one by one as they arrive. */
export interface BatchInProgress {
  batchStart: number;
  records: number;
  rows: ImportRow[];
  failures: StagedImportRow[];
}

export const newBatch = (batchStart: number): BatchInProgress => ({
  batchStart,
  records: 0,
  rows: [],
  failures: [],
});

/**
 * Checks the next record of `batch` under the import's data rules (parseImportRow). Records are
 * numbered from 1 after the header; the spreadsheet row is one more.
 */
export function addRecord(
  batch: BatchInProgress,
  { columns, item }: { columns: string[]; item: ImportRecord },
): void {
  batch.records += 1;
  const sheetRow = batch.batchStart + batch.records + 1;
  // The parser's message may quote the row, which may hold text the report cannot store.
  if ('error' in item)
    batch.failures.push(failure(batch, sheetRow, storableText(item.error.message)));
  else {
    const parsed = parseImportRow(columns, item.record, sheetRow);
    if (parsed.ok) batch.rows.push(parsed.value);
    else batch.failures.push(failure(batch, parsed.row, parsed.message));
  }
}

function failure(batch: BatchInProgress, sheetRow: number, error: string): StagedImportRow {
  return {
    batchStart: batch.batchStart,
    sheetRow,
    id: null,
    email: null,
    subscribed: null,
    data: null,
    occurrences: 1,
    error,
  };
}

/** The staged rows of a whole batch: its good rows merged by email, as the import always has. */
export function finishBatch(
  batch: BatchInProgress,
  { newId }: { newId: () => string },
): StagedImportRow[] {
  const staged = batch.failures;
  for (const { row, occurrences } of mergeByEmail(batch.rows)) {
    staged.push({
      batchStart: batch.batchStart,
      sheetRow: row.row,
      id: newId(),
      email: row.email,
      subscribed: row.subscribed,
      data: row.set,
      occurrences,
      error: null,
    });
  }
  return staged;
}
