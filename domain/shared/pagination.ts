import { validationError } from './errors.js';

// Every id is a UUID; a cursor naming anything else was not made by us.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A keyset position: the sort value of the last row seen and its id as the tie-breaker. */
export interface KeysetPosition {
  sort: string | number;
  id: string;
}

export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.sort, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): KeysetPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      (typeof value[0] === 'string' || typeof value[0] === 'number') &&
      typeof value[1] === 'string' &&
      UUID.test(value[1])
    ) {
      return { sort: value[0], id: value[1] };
    }
  } catch {
    // fall through to the validation error
  }
  throw validationError({ field: 'cursor', message: 'Invalid cursor', code: 'invalid_cursor' });
}

export interface CursorPage<T> {
  data: T[];
  cursor: string | null;
  hasMore: boolean;
  total: number;
}

/**
 * Builds a cursor page from `limit + 1` rows fetched in keyset order. `total` is the real count
 * on the first page only (spec rule 3), so later pages never pay for a count.
 */
export function cursorPage<T>({
  rows,
  limit,
  total,
  positionOf,
}: {
  rows: T[];
  limit: number;
  total: number | undefined;
  positionOf: (row: T) => KeysetPosition;
}): CursorPage<T> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return {
    data,
    cursor: hasMore && last ? encodeCursor(positionOf(last)) : null,
    hasMore,
    total: total ?? 0,
  };
}

/** The position of a row paged by its id alone (ids are time-ordered). */
const idPosition = ({ id }: { id: string }): KeysetPosition => ({ sort: id, id });

/** What a client asks of a keyset listing: how many rows, after which cursor (none at first). */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

/** Where a keyset page starts: after the row of this id (none on the first page). */
export interface AfterId {
  afterId: string | undefined;
  limit: number;
}

/** A listing's reads: `limit + 1` rows after `afterId`, and the count of every match. */
export interface KeysetReads<R, V> {
  rows: (after: AfterId) => Promise<R[]>;
  count: () => Promise<number>;
  view: (row: R) => V;
}

/**
 * A cursor page newest first, by keyset on the (time-ordered UUID v7) id; the count runs on the
 * first page only.
 */
export async function newestFirstPage<R, V extends { id: string }>(
  { cursor, limit }: PageRequest,
  { rows, count, view }: KeysetReads<R, V>,
): Promise<CursorPage<V>> {
  const [found, total] = await Promise.all([
    rows({ afterId: cursor ? decodeCursor(cursor).id : undefined, limit }),
    cursor ? undefined : count(),
  ]);
  return cursorPage({ rows: found.map(view), limit, total, positionOf: idPosition });
}

export interface PageResult<T> {
  data: T[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

export function pageResult<T>({
  data,
  total,
  page,
  pageSize,
}: {
  data: T[];
  total: number;
  page: number;
  pageSize: number;
}): PageResult<T> {
  return { data, total, page, pageSize, totalPages: Math.ceil(total / pageSize) };
}
