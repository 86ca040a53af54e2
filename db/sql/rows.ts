import type { Sql } from './sql.js';

// Statements many resources share. Table and column names come from this code, never a request.

/** A table whose rows are found by id within what owns them: a project, or a workflow, say. */
export interface OwnedTable {
  table: string;
  /** What a find reads; every column by default. */
  columns?: string;
  ownerColumn?: string;
}

const ownedRowWhere = ({ table, ownerColumn = 'project_id' }: OwnedTable) =>
  `FROM ${table} WHERE id = $1 AND ${ownerColumn} = $2`;

export async function findOwnedRow<T>(
  sql: Sql,
  owned: OwnedTable,
  { id, ownerId }: { id: string; ownerId: string },
): Promise<T | undefined> {
  const [found] = await sql.query<T>(`SELECT ${owned.columns ?? '*'} ${ownedRowWhere(owned)}`, [
    id,
    ownerId,
  ]);
  return found;
}

/** Deletes the row; false when its owner has no such row. */
export async function deleteOwnedRow(
  sql: Sql,
  owned: OwnedTable,
  { id, ownerId }: { id: string; ownerId: string },
): Promise<boolean> {
  const deleted = await sql.query(`DELETE ${ownedRowWhere(owned)} RETURNING id`, [id, ownerId]);
  return deleted.length > 0;
}

/** One column of the row whose `key` column holds `value`, if there is such a row. */
export async function findColumn<T>(
  sql: Sql,
  { table, column, key }: { table: string; column: string; key: string },
  value: unknown,
): Promise<T | undefined> {
  const [row] = await sql.query<Record<string, T>>(
    `SELECT ${column} AS value FROM ${table} WHERE ${key} = $1`,
    [value],
  );
  return row?.value;
}

/** How many rows of `table` a project has; with `value`, only those whose `column` holds it. */
export async function countProjectRows(
  sql: Sql,
  { table, column }: { table: string; column: string },
  { projectId, value }: { projectId: string; value?: string },
): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table}
      WHERE project_id = $1 AND ($2::text IS NULL OR ${column} = $2)`,
    [projectId, value ?? null],
  );
  return row?.n ?? 0;
}

/** Runs a DELETE (without RETURNING) and answers how many rows it deleted. */
export async function countDeleted(sql: Sql, del: string, params: unknown[]): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `WITH gone AS (${del} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    params,
  );
  return row?.n ?? 0;
}

/**
 * A status-filtered listing of what one owner has: `list`, a keyset page, newest first after
 * `afterId` (ids are time-ordered UUID v7), `limit + 1` rows so the caller can tell whether more
 * follow; and `count`. `from` aliases the table `x`; `joins` add what `columns` read beyond it.
 * `owner` names the owner's id in the callers' arguments, and its column.
 */
export function statusListing<Row, Status extends string, Owner extends string>({
  from,
  owner: [ownerKey, ownerColumn],
  columns,
  joins = '',
}: {
  from: string;
  owner: readonly [Owner, string];
  columns: string;
  joins?: string;
}) {
  const where = `WHERE x.${ownerColumn} = $1 AND ($2::text[] IS NULL OR x.status = ANY($2::text[]))`;
  type Filter = Record<Owner, string> & { statuses?: Status[] };
  return {
    list: (sql: Sql, page: Filter & { afterId?: string; limit: number }): Promise<Row[]> =>
      sql.query<Row>(
        `SELECT ${columns} FROM ${from} ${joins} ${where}
            AND ($3::uuid IS NULL OR x.id < $3::uuid)
          ORDER BY x.id DESC LIMIT $4`,
        [page[ownerKey], page.statuses ?? null, page.afterId ?? null, page.limit + 1],
      ),
    count: async (sql: Sql, filter: Filter): Promise<number> => {
      const [row] = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${from} ${where}`,
        [filter[ownerKey], filter.statuses ?? null],
      );
      return row?.n ?? 0;
    },
  };
}
