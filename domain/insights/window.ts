import { validationError } from '../shared/errors.js';
import type { Sql } from '../../db/sql/sql.js';
import { timeUnitMs } from '../shared/time-unit.pure.js';
import { MAX_WINDOW_DAYS } from './activity-type.pure.js';

const DAY_MS = timeUnitMs('days');

/**
 * The window [from, to) a stats or analytics query covers: `to` defaults to now and `from` to
 * 30 days before it; `from` after `to`, or a window over 366 days, is a 422.
 */
export function resolveWindow({
  from,
  to,
  now = new Date(),
}: {
  from?: Date;
  to?: Date;
  now?: Date;
}): { from: Date; to: Date } {
  const end = to ?? now;
  const start = from ?? new Date(end.getTime() - 30 * DAY_MS);
  if (start.getTime() > end.getTime()) {
    throw validationError({
      field: 'from',
      message: 'from must not be after to',
      code: 'after_to',
    });
  }
  if (end.getTime() - start.getTime() > MAX_WINDOW_DAYS * DAY_MS) {
    throw validationError({
      field: 'from',
      message: `The window may span at most ${MAX_WINDOW_DAYS} days`,
      code: 'window_too_long',
    });
  }
  return { from: start, to: end };
}

/** A read of the project's insights that lists at most `limit` items. */
export interface LimitedRead {
  sql: Sql;
  projectId: string;
  limit: number;
}
