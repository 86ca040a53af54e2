import { describe, expect, it } from 'vitest';
import { insertEvent } from '../../db/sql/events.sql.js';
import { databasePool, seedProjectRows } from '../helpers/database.js';

// An event's time is its transaction's start; its id (UUIDv7, the activity feed's keyset) must
// carry that same millisecond, or a transaction that worked a while before writing its event
// shows out of order in the feed.

const { sql } = databasePool({ max: 2 });

/** The millisecond a UUIDv7 carries in its first 48 bits. */
const idMillis = (id: string): number => parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('event ids', () => {
  it('carry their transaction start, even when the event is written 80 ms into it', async () => {
    const { projectId, ids } = await seedProjectRows(sql, { name: 'event-id-time', contacts: 1 });
    const row = await sql.transaction(async (tx) => {
      await tx.query('SELECT pg_sleep(0.08)');
      await insertEvent(tx, {
        projectId,
        contactId: ids[0] as string,
        name: 'email.sent',
        data: {},
      });
      const [written] = await tx.query<{ id: string; at: string; start: string }>(
        `SELECT id, floor(extract(epoch from created_at) * 1000)::text AS at,
                floor(extract(epoch from now()) * 1000)::text AS start
           FROM events WHERE project_id = $1`,
        [projectId],
      );
      return written!;
    });
    expect(row.at).toBe(row.start);
    expect(idMillis(row.id)).toBe(Number(row.at));
  });

  it('made for one instant keep it to the millisecond and differ in their random part', async () => {
    const [row] = await sql.query<{ a: string; b: string; at: string }>(
      `SELECT uuid_generate_v7(t) AS a, uuid_generate_v7(t) AS b,
              floor(extract(epoch from t) * 1000)::text AS at
         FROM (SELECT timestamptz '2026-12-02 17:30:00.123456+00' AS t) s`,
    );
    expect(idMillis(row!.a)).toBe(Number(row!.at));
    expect(idMillis(row!.b)).toBe(Number(row!.at));
    expect(row!.a).not.toBe(row!.b);
    expect(row!.a[14]).toBe('7'); // the version nibble
  });
});
