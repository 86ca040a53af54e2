import { countContacts } from '../../db/sql/contacts.sql.js';
import {
  countFieldTypes,
  deleteFieldFromContacts,
  topFieldValues,
} from '../../db/sql/contact-fields.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { validationError } from '../shared/errors.js';
import { usageOf, type Usage } from '../shared/usage.js';
import { RESERVED_DATA_KEYS } from './data-rules.pure.js';
import type { FieldKind, FieldType } from './field-type.pure.js';

export interface FieldInfo {
  name: string;
  kind: FieldKind;
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
  const [total, rows] = await Promise.all([
    countContacts(sql, { projectId }),
    countFieldTypes(sql, { projectId, datePattern: ISO_DATE }),
  ]);
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
    throw validationError({
      field: 'field',
      message: `"${field}" is not a custom field`,
      code: 'not_custom_field',
    });
  }
  return field;
}

/** A custom field of a project's contacts, by its name under `data`. */
interface ContactFieldRef {
  sql: Sql;
  projectId: string;
  field: string;
}

export async function listFieldValues({
  sql,
  projectId,
  field,
  limit = 100,
}: ContactFieldRef & { limit?: number }): Promise<{
  field: string;
  values: { value: unknown; count: number }[];
}> {
  const rows = await topFieldValues(sql, { projectId, field: customField(field), limit });
  return { field, values: rows };
}

/**
 * Where a custom field is referenced: segment filters and campaign audiences that read it
 * (`data.<field>` or a path under it), workflows whose CONDITION steps read it or UPDATE_CONTACT
 * steps write it.
 */
export async function fieldUsage({
  sql,
  projectId,
  field,
}: ContactFieldRef): Promise<{ field: string } & Usage> {
  return { field, ...(await usageOf(sql, { projectId, field: customField(field) })) };
}

export async function deleteContactField({
  sql,
  projectId,
  field,
}: ContactFieldRef): Promise<{ field: string; affected: number }> {
  const affected = await deleteFieldFromContacts(sql, { projectId, field: customField(field) });
  return { field, affected };
}
