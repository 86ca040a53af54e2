import { countMatchingContacts, pageOfMatchingContacts } from '../../db/sql/segment-members.sql.js';
import { type Sql } from '../../db/sql/sql.js';
import { toContactView, type ContactView } from '../contacts/contact-view.js';
import type { Filter } from './filter/ast.pure.js';
import { checkReferences, compileForProject } from './segment-rules.js';

/**
 * What an unsaved filter matches now: the count and the newest few contacts, through the same
 * compiler as a saved segment (the dashboard's builder shows it while the user edits).
 */
export async function previewFilter({
  sql,
  projectId,
  filter,
  filterField,
  sampleSize,
}: {
  sql: Sql;
  projectId: string;
  filter: Filter;
  /** The body key the filter came in, for error paths. */
  filterField: string;
  sampleSize: number;
}): Promise<{ count: number; sample: ContactView[] }> {
  await checkReferences(sql, { projectId, filter, field: filterField });
  const where = await compileForProject(sql, { projectId, filter });
  const [count, rows] = await Promise.all([
    countMatchingContacts(sql, { projectId, where }),
    sampleSize > 0
      ? pageOfMatchingContacts(sql, { projectId, where, limit: sampleSize, offset: 0 })
      : Promise.resolve([]),
  ]);
  return { count, sample: rows.map(toContactView) };
}
