import type { Granularity } from './activity-type.pure.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

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

const STEP_MS: Record<Granularity, number> = { hour: HOUR_MS, day: DAY_MS, week: 7 * DAY_MS };

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
  for (let at = START_OF[granularity](from.getTime()); at < end; at += STEP_MS[granularity]) {
    starts.push(at);
  }
  return starts;
}
