import type { Sql } from './sql.js';

export interface FieldTypeCount {
  key: string;
  /** jsonb_typeof of the values counted. */
  type: string;
  n: number;
  /** Of the string values, how many match `datePattern`. */
  dates: number;
}

/** Per key of `data` and per JSON type of its values: how many contacts have it (nulls aside). */
export async function countFieldTypes(
  sql: Sql,
  { projectId, datePattern }: { projectId: string; datePattern: string },
): Promise<FieldTypeCount[]> {
  return sql.query<FieldTypeCount>(
    `SELECT f.key, jsonb_typeof(f.value) AS type, count(*)::int AS n,
            count(*) FILTER (WHERE jsonb_typeof(f.value) = 'string' AND f.value #>> '{}' ~ $1)::int AS dates
       FROM contacts c, jsonb_each(c.data) f
      WHERE c.project_id = $2 AND jsonb_typeof(f.value) <> 'null'
      GROUP BY f.key, jsonb_typeof(f.value)`,
    [datePattern, projectId],
  );
}

/** The most frequent values of one key of `data`, with their counts. */
export async function topFieldValues(
  sql: Sql,
  { projectId, field, limit }: { projectId: string; field: string; limit: number },
): Promise<{ value: unknown; count: number }[]> {
  return sql.query<{ value: unknown; count: number }>(
    `SELECT data -> $1::text AS value, count(*)::int AS count FROM contacts
      WHERE project_id = $2 AND data ? $1::text
      GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT $3`,
    [field, projectId, limit],
  );
}

/** Removes one key of `data` from every contact of the project; answers how many had it. */
export async function deleteFieldFromContacts(
  sql: Sql,
  { projectId, field }: { projectId: string; field: string },
): Promise<number> {
  const [row] = await sql.query<{ affected: number }>(
    `WITH changed AS (
       UPDATE contacts SET data = data - $1::text, updated_at = now()
        WHERE project_id = $2 AND data ? $1::text RETURNING 1)
     SELECT count(*)::int AS affected FROM changed`,
    [field, projectId],
  );
  return row?.affected ?? 0;
}
