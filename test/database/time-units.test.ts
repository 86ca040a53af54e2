import { describe, expect, it } from 'vitest';
import { DELAY_UNIT_MS, DELAY_UNITS } from '../../domain/automation/step-type.pure.js';
import { GRANULARITIES, GRANULARITY_UNIT } from '../../domain/insights/activity-type.pure.js';
import { WINDOW_UNIT_MS, WINDOW_UNITS } from '../../domain/segments/filter/ast.pure.js';
import {
  TIME_UNIT_SECONDS,
  TIME_UNITS,
  timeUnitSecondsSql,
} from '../../domain/shared/time-unit.pure.js';
import { withDatabase } from '../helpers/database.js';

// DELAY units, filter windows and analytics buckets are subsets of one vocabulary; the SQL that
// turns a stored unit name into seconds is generated from it, so PostgreSQL and TypeScript agree.
describe('time units', () => {
  it('the generated SQL CASE gives each unit the seconds TypeScript gives it, NULL outside', async () => {
    const rows = await withDatabase(
      async (db) =>
        (
          await db.query<{ unit: string; seconds: number | null }>(
            `SELECT u AS unit, ${timeUnitSecondsSql('u')} AS seconds
               FROM unnest($1::text[]) AS u`,
            [[...TIME_UNITS, 'fortnights']],
          )
        ).rows,
    );
    expect(Object.fromEntries(rows.map((r) => [r.unit, r.seconds]))).toEqual({
      ...TIME_UNIT_SECONDS,
      fortnights: null,
    });
  });

  it('every subset takes its lengths from the vocabulary', () => {
    expect(DELAY_UNITS.map((u) => DELAY_UNIT_MS[u])).toEqual(
      DELAY_UNITS.map((u) => TIME_UNIT_SECONDS[u] * 1000),
    );
    expect(WINDOW_UNITS.map((u) => WINDOW_UNIT_MS[u])).toEqual([60_000, 3_600_000, 86_400_000]);
    expect(GRANULARITIES.map((g) => TIME_UNIT_SECONDS[GRANULARITY_UNIT[g]])).toEqual([
      3600, 86_400, 604_800,
    ]);
  });
});
