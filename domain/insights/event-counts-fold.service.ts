import { foldEventHourShards, hourStart } from '../../db/sql/email-event-hours.sql.js';
import type { Sql } from '../../db/sql/sql.js';

/** Shard rows moved per statement (one short transaction each). */
export const FOLD_BATCH = 5_000;

/**
 * Folds the kept hourly email event counts of every hour before the last whole one into a row
 * per project, name and hour (`foldEventHourShards` says why). The hour under way and the one
 * just ended are left to their writers: events are stamped as they are recorded, so older hours
 * see only deletions, whose shards the next run folds. Runs until a batch comes back short.
 */
export async function foldEventCounts({
  sql,
  now,
  batch = FOLD_BATCH,
  progress,
}: {
  sql: Sql;
  now: Date;
  batch?: number;
  /** Called after each batch with the rows moved so far. */
  progress?: (moved: number) => void;
}): Promise<{ moved: number }> {
  const before = hourStart(now, 1);
  let moved = 0;
  for (;;) {
    const n = await foldEventHourShards(sql, { before, limit: batch });
    moved += n;
    progress?.(moved);
    if (n < batch) return { moved };
  }
}
