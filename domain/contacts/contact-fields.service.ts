import type { Sql } from '../../db/sql/sql.js';
import { DomainError } from '../shared/errors.js';
import { RESERVED_DATA_KEYS } from './data-rules.pure.js';

export type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'object' | 'mixed';

export interface FieldInfo {
  name: string;
  kind: 'standard' | 'custom';
  type: FieldType;
  coverage: number;
}

const STANDARD_FIELDS: { name: string; type: FieldType }[] = [
  { name: 'email', type: 'string' },
  { name: 'subscribed', type: 'boolean' },
  { name: 'createdAt', type: 'date' },
  { name: 'updatedAt', type: 'date' },
];
const STANDARD_NAMES = new Set(STANDARD_FIELDS.map((f) => f.name));

// An ISO 8601 date or date-time.
const ISO_DATE =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$';

const percent = (part: number, whole: number): number =>
  whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;

function typeOf(counts: Map<string, { n: number; dates: number }>): FieldType {
  const kinds = new Set<FieldType>();
  for (const [jsonType, { n, dates }] of counts) {
    if (jsonType === 'string') kinds.add(dates === n ? 'date' : 'string');
    else if (jsonType === 'number' || jsonType === 'boolean') kinds.add(jsonType);
    else if (jsonType === 'object' || jsonType === 'array') kinds.add('object');
  }
  return kinds.size === 1 ? ([...kinds][0] as FieldType) : 'mixed';
}

/** Standard and custom fields with the type their values suggest and how many contacts have them. */
export async function listContactFields({
  sql,
  projectId,
}: {
  sql: Sql;
  projectId: string;
}): Promise<{ fields: FieldInfo[] }> {
  const [totals, rows] = await Promise.all([
    sql.query<{ n: number }>('SELECT count(*)::int AS n FROM contacts WHERE project_id = $1', [
      projectId,
    ]),
    sql.query<{ key: string; type: string; n: number; dates: number }>(
      `SELECT f.key, jsonb_typeof(f.value) AS type, count(*)::int AS n,
              count(*) FILTER (WHERE jsonb_typeof(f.value) = 'string' AND f.value #>> '{}' ~ $1)::int AS dates
         FROM contacts c, jsonb_each(c.data) f
        WHERE c.project_id = $2 AND jsonb_typeof(f.value) <> 'null'
        GROUP BY f.key, jsonb_typeof(f.value)`,
      [ISO_DATE, projectId],
    ),
  ]);
  const total = totals[0]?.n ?? 0;
  const byKey = new Map<string, Map<string, { n: number; dates: number }>>();
  for (const row of rows) {
    const entry = byKey.get(row.key) ?? new Map();
    entry.set(row.type, { n: row.n, dates: row.dates });
    byKey.set(row.key, entry);
  }
  const custom = [...byKey.entries()]
    .map(([name, counts]) => ({
      name,
      kind: 'custom' as const,
      type: typeOf(counts),
      coverage: percent(
        [...counts.values()].reduce((sum, c) => sum + c.n, 0),
        total,
      ),
    }))
    .sort((a, b) => b.coverage - a.coverage || a.name.localeCompare(b.name));
  const standard = STANDARD_FIELDS.map((f) => ({
    ...f,
    kind: 'standard' as const,
    coverage: total > 0 ? 100 : 0,
  }));
  return { fields: [...standard, ...custom] };
}

function customField(field: string): string {
  if (STANDARD_NAMES.has(field) || RESERVED_DATA_KEYS.has(field)) {
    throw new DomainError('VALIDATION_ERROR', 'Validation failed', {
      errors: [
        { field: 'field', message: `"${field}" is not a custom field`, code: 'not_custom_field' },
      ],
    });
  }
  return field;
}

export async function listFieldValues({
  sql,
  projectId,
  field,
  limit = 100,
}: {
  sql: Sql;
  projectId: string;
  field: string;
  limit?: number;
}): Promise<{ field: string; values: { value: unknown; count: number }[] }> {
  const rows = await sql.query<{ value: unknown; count: number }>(
    `SELECT data -> $1::text AS value, count(*)::int AS count FROM contacts
      WHERE project_id = $2 AND data ? $1::text
      GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT $3`,
    [customField(field), projectId, limit],
  );
  return { field, values: rows };
}

/**
 * Where a field is referenced. Segments, campaigns and workflows arrive with their own issues;
 * until then nothing can reference a field, and the lists are truthfully empty.
 */
export async function fieldUsage({ field }: { field: string }): Promise<{
  field: string;
  segments: unknown[];
  campaigns: unknown[];
  workflows: unknown[];
}> {
  return { field: customField(field), segments: [], campaigns: [], workflows: [] };
}

export async function deleteContactField({
  sql,
  projectId,
  field,
}: {
  sql: Sql;
  projectId: string;
  field: string;
}): Promise<{ field: string; affected: number }> {
  const [row] = await sql.query<{ affected: number }>(
    `WITH changed AS (
       UPDATE contacts SET data = data - $1::text, updated_at = now()
        WHERE project_id = $2 AND data ? $1::text RETURNING 1)
     SELECT count(*)::int AS affected FROM changed`,
    [customField(field), projectId],
  );
  return { field, affected: row?.affected ?? 0 };
}
