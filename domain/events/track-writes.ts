import {
  upsertContacts,
  type ContactUpsertResult,
  type ContactUpsertRow,
} from '../../db/sql/contact-upsert.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { createGroupCommit, type GroupedWrite } from '../shared/group-commit.js';

/** Writes one tracked event's contact and event (a row with `event`) for a project (the group). */
export type TrackWrites = GroupedWrite<ContactUpsertRow, ContactUpsertResult>;

/**
 * The plain track write (no Idempotency-Key, no confirmation asked): concurrent tracks of a
 * project share one upsert statement (createGroupCommit), two of the same contact never. What a
 * track answers is the same either way: its own contact, event and timestamp, after its commit.
 * One per API process.
 */
export const createTrackWrites = ({
  sql,
  maxBatch,
}: {
  sql: Sql;
  maxBatch?: number;
}): TrackWrites =>
  createGroupCommit({
    maxBatch,
    distinctBy: (row) => row.email,
    write: (projectId, rows) =>
      upsertContacts(sql, { projectId, defaultSubscribed: true, source: 'track', rows }),
  });
