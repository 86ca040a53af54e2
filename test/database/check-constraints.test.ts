import { describe, expect, it } from 'vitest';
import {
  listedValues,
  syncVocabularyChecks,
  VOCABULARY_CHECKS,
} from '../../db/vocabulary-checks.js';
import { withDatabase } from '../helpers/database.js';

// Each CHECK list of a vocabulary column is generated from the vocabulary (db/vocabulary-checks.ts,
// run after the migrations): this holds every list in the migrated database equal to its
// vocabulary, and every list to have one.
describe('CHECK constraints', () => {
  it('list exactly the values of the vocabulary each column stores', async () => {
    const checks = await withDatabase(
      async (db) =>
        (
          await db.query<{ table: string; def: string }>(
            `SELECT conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS def
               FROM pg_constraint
              WHERE contype = 'c' AND connamespace = 'public'::regnamespace
              ORDER BY 1, 2`,
          )
        ).rows,
    );
    const lists = checks.flatMap(({ table, def }) => {
      const listed = listedValues(def);
      return listed ? [{ key: `${table}.${listed.column}`, values: listed.values }] : [];
    });
    // Every list is found (the pattern reads PostgreSQL's own printing of each of them).
    expect(lists.length).toBe(checks.filter((c) => c.def.includes('= ANY')).length);
    const found = Object.fromEntries(lists.map((l) => [l.key, [...l.values].sort()]));
    const expected = Object.fromEntries(
      Object.entries(VOCABULARY_CHECKS).map(([key, values]) => [key, [...values].sort()]),
    );
    expect(found).toEqual(expected);
  });

  it('are rewritten from the vocabulary after the migrations when they differ', async () => {
    await withDatabase(async (db) => {
      // A wider list (as a release that dropped a value would leave): harmless to other tests.
      await db.query(`ALTER TABLE workflow_transitions DROP CONSTRAINT workflow_transitions_branch_check,
        ADD CONSTRAINT workflow_transitions_branch_check
        CHECK (branch IN ('yes', 'no', 'event', 'timeout', 'legacy'))`);
      expect(await syncVocabularyChecks(db)).toEqual(['workflow_transitions.branch']);
      const { rows } = await db.query<{ def: string }>(
        `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
          WHERE conname = 'workflow_transitions_branch_check'`,
      );
      expect(listedValues(rows[0]!.def)?.values.sort()).toEqual(
        [...VOCABULARY_CHECKS['workflow_transitions.branch']!].sort(),
      );
      expect(rows[0]!.def).not.toContain('NOT VALID');
      expect(await syncVocabularyChecks(db)).toEqual([]);
    });
  });
});
