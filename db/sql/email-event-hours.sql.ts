import type { Sql } from './sql.js';

const HOUR_MS = 3_600_000;

/** The start of the UTC hour `hoursBack` hours before the one `at` lies in. */
export const hourStart = (at: Date, hoursBack = 0): Date =>
  new Date((Math.floor(at.getTime() / HOUR_MS) - hoursBack) * HOUR_MS);

/**
 * The whole UTC hours of [from, to): `lo` is the first one's start, `hi` the last one's end
 * (hi < lo when the window lies inside one hour).
 */
export function wholeHours({ from, to }: { from: Date; to: Date }): { lo: Date; hi: Date } {
  return {
    lo: new Date(Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS),
    hi: hourStart(to),
  };
}

/**
 * The names of `$2`, each once. Each range is read name by name (a LATERAL scan per name), not
 * with `name = ANY($2)`: on PostgreSQL 17 an index scan over several names, whose range on the
 * next column ends just short of a name's last entries, can walk on along the leaf pages through
 * the next name's whole history (older than the range) instead of descending to it again; a
 * window ending a few minutes before the newest events read 5,334 index pages for 169 events
 * (51 ms) on bench:insights' data, where the scans name by name read 127.
 */
const NAMES = '(SELECT DISTINCT unnest($2::text[]) AS name) n';

/**
 * `window_counts(bucket, name, n)`: how many events of each of the names `$2` (each `email.*`)
 * the project `$1` has in [`$3`, `$4`), by `bucket` (an SQL expression of `at`, a time: every
 * bucket must be made of whole UTC hours, as hour, day and week are; a constant counts the whole
 * window); `lo` and `hi` name the parameters that hold wholeHours() of the window. The whole
 * hours are read from the counts kept per hour by triggers on events (project_email_event_hours,
 * each hour's shards summed into its bucket at once); only the partial first and last hours are
 * counted from the events, by index range: [from, least(lo, to)) and [greatest(hi, lo), to)
 * (inside one hour the first range is the whole window and the second is empty). A bucket whose
 * events all went has no row. Grouping straight into the buckets, not hour by hour first, keeps a
 * 30-day window's thousands of hours out of a hash table of their own. `OFFSET 0` keeps the kept
 * hours' scan name by name too: flattened, the planner read the project's whole table of hours
 * (90 days of them on bench:insights' data) for a 7-day window, 0.6-0.7 ms more a statement.
 */
export const windowCountsCte = ({
  lo,
  hi,
  bucket,
}: {
  lo: string;
  hi: string;
  bucket: (at: string) => string;
}): string => {
  /** The events of [start, end), counted into their buckets by index range, name by name. */
  const counted = (start: string, end: string): string => `
         SELECT ${bucket('e.created_at')}, e.name, count(*)
           FROM ${NAMES},
                LATERAL (SELECT e.name, e.created_at FROM events e
                          WHERE e.project_id = $1 AND e.name = n.name
                            AND e.created_at >= ${start} AND e.created_at < ${end}) e
          GROUP BY 1, 2`;
  return `window_counts AS (
       SELECT bucket, name, sum(n) AS n FROM (
         SELECT ${bucket('h.hour')} AS bucket, h.name, sum(h.count) AS n
           FROM ${NAMES},
                LATERAL (SELECT h.name, h.hour, h.count FROM project_email_event_hours h
                          WHERE h.project_id = $1 AND h.name = n.name
                            AND h.hour >= ${lo}::timestamptz AND h.hour < ${hi}::timestamptz
                         OFFSET 0) h
          GROUP BY 1, 2
         UNION ALL${counted('$3', `least(${lo}::timestamptz, $4::timestamptz)`)}
         UNION ALL${counted(`greatest(${hi}::timestamptz, ${lo}::timestamptz)`, '$4')}) parts
        GROUP BY bucket, name
       HAVING sum(n) <> 0)`;
};

/**
 * Folds the shards of the hours before `before` into shard 0, up to `limit` shard rows a call;
 * returns how many it moved (fewer than `limit`: none left). Writers add to the shard of their
 * connection, so a busy hour ends with up to 16 rows per name; reads of a window sum every one
 * of them, and a 30-day series over hours of 16 shards reads 16 times the rows (44-57 ms
 * instead of 7 on bench:insights' data). Once an hour is over its writers have moved on, so its
 * shards can be one row again. The sums never change: the moved rows are deleted and added to
 * shard 0 in one statement. Rows a writer holds are skipped (the next fold takes them), and
 * shard 0 is only ever waited on, never its writers on the fold: a writer's connection adds to
 * one shard, so no cycle of waits can form. A writer whose row was moved meanwhile inserts it
 * again (ON CONFLICT finds it gone), so nothing it adds is lost.
 */
export async function foldEventHourShards(
  sql: Sql,
  { before, limit }: { before: Date; limit: number },
): Promise<number> {
  const rows = await sql.query<{ moved: number }>(
    `WITH moved AS (
       DELETE FROM project_email_event_hours h
        WHERE h.ctid = ANY (ARRAY(
                SELECT u.ctid FROM project_email_event_hours u
                 WHERE u.hour < $1 AND u.shard <> 0
                 LIMIT $2 FOR UPDATE SKIP LOCKED))
       RETURNING h.project_id, h.name, h.hour, h.count),
     added AS (
       INSERT INTO project_email_event_hours AS h (project_id, name, hour, shard, count)
       SELECT project_id, name, hour, 0, sum(count) FROM moved
        GROUP BY 1, 2, 3
        ORDER BY 1, 2, 3
       ON CONFLICT (project_id, name, hour, shard) DO UPDATE SET count = h.count + excluded.count)
     SELECT count(*)::int AS moved FROM moved`,
    [before, limit],
  );
  return rows[0]?.moved ?? 0;
}
