import type pg from 'pg';

/**
 * Tables whose rows a refused request writes by design: rate-limit buckets and sign-in attempts
 * are counted for every request, refused or not.
 */
const WRITTEN_BY_EVERY_REQUEST = new Set(['rate_limits', 'auth_attempts']);

export type RowCounts = Record<string, number>;

/**
 * A statement counting one project's rows and its owner's, in every table that names either (by
 * a project_id or user_id column, or through a foreign key to a table that does), read from the
 * catalog so a table added later is counted too.
 */
export async function rowCounter(
  client: pg.Client,
): Promise<(scope: { projectId: string; userId: string }) => Promise<RowCounts>> {
  const { rows: columns } = await client.query<{ table: string; column: string }>(
    `SELECT c.relname AS table, a.attname AS column
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND a.attname IN ('project_id', 'user_id')`,
  );
  const { rows: references } = await client.query<{
    table: string;
    column: string;
    parent: string;
    parentColumn: string;
  }>(
    `SELECT child.relname AS table, ca.attname AS column,
            parent.relname AS parent, pa.attname AS "parentColumn"
       FROM pg_constraint k
       JOIN pg_class child ON child.oid = k.conrelid
       JOIN pg_class parent ON parent.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = child.relnamespace AND n.nspname = current_schema()
       JOIN pg_attribute ca ON ca.attrelid = k.conrelid AND ca.attnum = k.conkey[1]
       JOIN pg_attribute pa ON pa.attrelid = k.confrelid AND pa.attnum = k.confkey[1]
      WHERE k.contype = 'f' AND cardinality(k.conkey) = 1 AND NOT child.relispartition`,
  );
  const direct = new Map<string, string[]>();
  for (const { table, column } of columns) {
    if (WRITTEN_BY_EVERY_REQUEST.has(table)) continue;
    direct.set(table, [...(direct.get(table) ?? []), column]);
  }
  const counts: string[] = [
    `SELECT 'projects' AS t, count(*)::int AS n FROM projects WHERE id = $1`,
    `SELECT 'users', count(*)::int FROM users WHERE id = $2`,
  ];
  const scopeOf = (column: string): string => (column === 'project_id' ? '$1' : '$2');
  for (const [table, scoped] of direct) {
    const where = scoped.map((c) => `${c} = ${scopeOf(c)}::uuid`).join(' OR ');
    counts.push(`SELECT '${table}', count(*)::int FROM "${table}" WHERE ${where}`);
  }
  for (const { table, column, parent, parentColumn } of references) {
    if (direct.has(table) || WRITTEN_BY_EVERY_REQUEST.has(table)) continue;
    const parentScope = direct.get(parent);
    if (!parentScope) continue;
    const where = parentScope.map((c) => `p.${c} = ${scopeOf(c)}::uuid`).join(' OR ');
    counts.push(
      `SELECT '${table}.${column}', count(*)::int FROM "${table}" x
         WHERE x."${column}" IN (SELECT p."${parentColumn}" FROM "${parent}" p WHERE ${where})`,
    );
  }
  const statement = counts.join('\nUNION ALL\n');
  return async ({ projectId, userId }) => {
    const { rows } = await client.query<{ t: string; n: number }>(statement, [projectId, userId]);
    return Object.fromEntries(rows.map((r) => [r.t, r.n]));
  };
}

/** The tables whose counts differ, as `table: before -> after`. */
export function differences(before: RowCounts, after: RowCounts): string[] {
  const tables = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...tables]
    .filter((t) => before[t] !== after[t])
    .map((t) => `${t}: ${before[t] ?? 0} -> ${after[t] ?? 0}`);
}
