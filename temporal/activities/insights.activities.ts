import type { Sql } from '../../db/sql/sql.js';
import { foldEventCounts } from '../../domain/insights/event-counts-fold.service.js';
import { heartbeating } from './heartbeating.js';

export function createInsightsActivities({ sql }: { sql: Sql }) {
  return {
    /** Run by the `event-counts-fold` schedule: one row per finished hour of the kept counts. */
    async foldEventCounts(): Promise<{ moved: number }> {
      return heartbeating((note) =>
        foldEventCounts({ sql, now: new Date(), progress: (moved) => note({ moved }) }),
      );
    },
  };
}
