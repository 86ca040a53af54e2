import { findProjectsByKeys, type ProjectKeyRow } from '../../db/sql/projects.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { createGroupCommit } from '../shared/group-commit.js';
import type { KeyKind } from './key-kind.pure.js';

/** The project of an API key (a secret key by its hash); undefined for an unknown key. */
export type KeyLookup = (args: {
  kind: KeyKind;
  key: string;
}) => Promise<ProjectKeyRow | undefined>;

/** One statement per lookup (SMTP AUTH and each submitted message: a handful a second at most). */
export function lookupKeysAlone({ sql }: { sql: Sql }): KeyLookup {
  return async ({ kind, key }) => (await findProjectsByKeys(sql, { kind, keys: [key] }))[0];
}

/**
 * The API's lookups: every request looks its key up, so concurrent requests share statements
 * (createGroupCommit without distinctBy). A lookup waits only while one is in flight, and its
 * answer comes from a statement begun after it was asked: a key rotated or a project disabled
 * before the request came is seen, as with a lookup of its own. One per API process.
 */
export function createKeyLookups({ sql, maxBatch }: { sql: Sql; maxBatch?: number }): KeyLookup {
  const lookup = createGroupCommit<string, ProjectKeyRow | undefined>({
    maxBatch,
    write: async (kind, keys) => {
      const rows = await findProjectsByKeys(sql, {
        kind: kind as KeyKind,
        keys: [...new Set(keys)],
      });
      const byKey = new Map(rows.map((row) => [row.key, row]));
      return keys.map((key) => byKey.get(key));
    },
  });
  return ({ kind, key }) => lookup(kind, key);
}
