import { TIME_UNIT_SECONDS, timeUnitMs, type TimeUnit } from '../shared/time-unit.pure.js';
import type { Granularity } from './activity-type.pure.js';

const HOUR_MS = timeUnitMs('hours');
const DAY_MS = timeUnitMs('days');

const UNIT_OF = { hour: 'hours', day: 'days', week: 'weeks' } satisfies Record<
  Granularity,
  TimeUnit
>;

/** How long a bucket of `granularity` is, in seconds (its stride in SQL). */
export const bucketSeconds = (granularity: Granularity): number =>
  TIME_UNIT_SECONDS[UNIT_OF[granularity]];

/** The start of the UTC bucket `at` lies in, as PostgreSQL's `date_trunc` cuts it in UTC. */
const START_OF = {
  hour: (at) => Math.floor(at / HOUR_MS) * HOUR_MS,
  day: (at) => Math.floor(at / DAY_MS) * DAY_MS,
  // ISO weeks begin on Monday; 1970-01-01 was a Thursday, three days after one.
  week: (at) => {
    const day = Math.floor(at / DAY_MS);
    return (day - ((day + 3) % 7)) * DAY_MS;
  },
} satisfies Record<Granularity, (at: number) => number>;

/**
 * The starts of every UTC bucket of [from, to), oldest first: the one `from` lies in, then each
 * next one that begins before `to` (none when the window is empty and begins on a bucket's
 * start), as `generate_series(date_trunc(g, from), to - 1 microsecond, '1 g')` lists them.
 */
export function bucketStarts({
  from,
  to,
  granularity,
}: {
  from: Date;
  to: Date;
  granularity: Granularity;
}): number[] {
  const starts: number[] = [];
  const end = to.getTime();
  for (
    let at = START_OF[granularity](from.getTime());
    at < end;
    at += bucketSeconds(granularity) * 1000
  ) {
    starts.push(at);
  }
  return starts;
}
