import { describe, expect, it } from 'vitest';
import { GRANULARITIES } from '../../domain/insights/activity-type.pure.js';
import { bucketStarts } from '../../domain/insights/buckets.pure.js';
import { databasePool } from '../helpers/database.js';

// The time series lists its buckets in JavaScript (bucketStarts) and counts into them in
// PostgreSQL (date_bin from a Monday, UTC): both must cut every window as date_trunc in UTC
// does, whatever the session's zone. date_bin's side is checked by email-event-counts.test.ts.

const { sql } = databasePool({ max: 1 });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('bucketStarts', () => {
  it("lists the buckets PostgreSQL's date_trunc and generate_series list, for every granularity", async () => {
    const base = Date.UTC(2026, 11, 31, 22, 17, 5, 123); // a Thursday, before a new year
    const windows: [number, number][] = [
      [base, base + 3 * DAY], // unaligned at both ends, over a year's end
      [Date.UTC(2026, 10, 30), Date.UTC(2026, 11, 7)], // Monday to Monday, aligned
      [base, base], // empty, unaligned: the one bucket it lies in
      [Date.UTC(2026, 10, 30), Date.UTC(2026, 10, 30)], // empty, on a bucket's start: none
      [base - 40 * DAY, base + 1], // weeks across months
      [Date.UTC(2024, 1, 28, 23, 59, 59, 999), Date.UTC(2024, 2, 1, 0, 0, 0, 1)], // a leap day
    ];
    await sql.query(`SET TIME ZONE 'America/St_Johns'`); // any zone: the cut is in UTC
    for (const granularity of GRANULARITIES) {
      for (const [from, to] of windows) {
        const rows = await sql.query<{ at: number }>(
          `SELECT extract(epoch FROM b)::float8 * 1000 AS at
             FROM generate_series(date_trunc($3, $1::timestamptz AT TIME ZONE 'UTC'),
                                  ($2::timestamptz AT TIME ZONE 'UTC') - interval '1 microsecond',
                                  ('1 ' || $3)::interval) AS b`,
          [new Date(from), new Date(to), granularity],
        );
        expect(
          bucketStarts({ from: new Date(from), to: new Date(to), granularity }),
          `${granularity} ${new Date(from).toISOString()} ${new Date(to).toISOString()}`,
        ).toEqual(rows.map((r) => r.at));
      }
    }
  });

  it('begins weeks on Monday, days at midnight and hours on the hour, in UTC', () => {
    const from = new Date(Date.UTC(2026, 11, 3, 15, 30)); // Thursday 3 December 2026
    const to = new Date(Date.UTC(2026, 11, 8, 1));
    expect(bucketStarts({ from, to, granularity: 'week' }).map((at) => new Date(at))).toEqual([
      new Date(Date.UTC(2026, 10, 30)),
      new Date(Date.UTC(2026, 11, 7)),
    ]);
    expect(bucketStarts({ from, to, granularity: 'day' })).toHaveLength(6);
    expect(bucketStarts({ from, to, granularity: 'hour' })[0]).toBe(Date.UTC(2026, 11, 3, 15));
    expect(bucketStarts({ from, to, granularity: 'hour' })).toHaveLength(9 + 4 * 24 + 1);
  });
});
