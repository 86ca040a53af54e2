const HOUR_MS = 3_600_000;

/**
 * The whole UTC hours of [from, to): `lo` is the first one's start, `hi` the last one's end
 * (hi < lo when the window lies inside one hour).
 */
export function wholeHours({ from, to }: { from: Date; to: Date }): { lo: Date; hi: Date } {
  return {
    lo: new Date(Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS),
    hi: new Date(Math.floor(to.getTime() / HOUR_MS) * HOUR_MS),
  };
}

/**
 * `window_hours(hour, name, n)`: how many events of each of the names `$2` (each `email.*`) the
 * project `$1` has in [`$3`, `$4`), by UTC hour; `lo` and `hi` name the parameters that hold
 * wholeHours() of the window. The whole hours are read from the counts kept per hour by triggers
 * on events (project_email_event_hours); only the partial first and last hours are counted from
 * the events, by index range: [from, least(lo, to)) and [greatest(hi, lo), to) (inside one hour
 * the first range is the whole window and the second is empty). Any bucket made of whole UTC
 * hours (hour, day, week) sums these rows. An hour whose events all went has no row.
 */
export const windowHoursCte = ({ lo, hi }: { lo: string; hi: string }): string => `window_hours AS (
       SELECT h.hour, h.name, sum(h.count) AS n
         FROM project_email_event_hours h
        WHERE h.project_id = $1 AND h.name = ANY($2::text[])
          AND h.hour >= ${lo}::timestamptz AND h.hour < ${hi}::timestamptz
        GROUP BY h.hour, h.name
       HAVING sum(h.count) <> 0
       UNION ALL
       SELECT date_trunc('hour', e.created_at, 'UTC'), e.name, count(*)
         FROM events e
        WHERE e.project_id = $1 AND e.name = ANY($2::text[])
          AND e.created_at >= $3 AND e.created_at < least(${lo}::timestamptz, $4::timestamptz)
        GROUP BY 1, 2
       UNION ALL
       SELECT date_trunc('hour', e.created_at, 'UTC'), e.name, count(*)
         FROM events e
        WHERE e.project_id = $1 AND e.name = ANY($2::text[])
          AND e.created_at >= greatest(${hi}::timestamptz, ${lo}::timestamptz) AND e.created_at < $4
        GROUP BY 1, 2)`;
